extension NanoTDF {
    /// The symmetric cipher code: AES-256-GCM with a tag of 64 to 128 bits.
    public enum Cipher: UInt8, Sendable, Equatable, CaseIterable {
        /// AES-256-GCM with a 64-bit tag.
        case aes256gcm64 = 0
        /// AES-256-GCM with a 96-bit tag (the OpenTDF Go/JS/C++ default).
        case aes256gcm96 = 1
        /// AES-256-GCM with a 104-bit tag.
        case aes256gcm104 = 2
        /// AES-256-GCM with a 112-bit tag.
        case aes256gcm112 = 3
        /// AES-256-GCM with a 120-bit tag.
        case aes256gcm120 = 4
        /// AES-256-GCM with a 128-bit tag: the only cipher Kith writes by default.
        case aes256gcm128 = 5

        /// The tag size in bytes, for the payload and for an encrypted policy.
        public var tagSize: Int {
            switch self {
            case .aes256gcm64: 8
            case .aes256gcm96: 12
            case .aes256gcm104: 13
            case .aes256gcm112: 14
            case .aes256gcm120: 15
            case .aes256gcm128: 16
            }
        }
    }
}
