extension NanoTDF {
    /// What to put around a payload when encrypting.
    public struct EncryptionConfiguration: Sendable, Equatable {
        /// The policy to embed or point to.
        public enum PolicyInput: Sendable, Equatable {
            /// A remote policy at this locator.
            case remote(ResourceLocator)
            /// The policy bytes embedded in clear (type 0x01).
            case plaintext([UInt8])
            /// The policy bytes encrypted under the payload key with the zero nonce, tag kept (type 0x02).
            case encrypted([UInt8])
        }

        /// The policy binding mode.
        public enum BindingMode: Sendable, Equatable {
            /// "GMAC" mode: the last 8 bytes of SHA-256 of the policy content (Kith's default).
            case gmac
            /// ECDSA-SHA256 by the ephemeral key, written `[len r][r][len s][s]`.
            case ecdsa
        }

        /// The KAS locator; for one-time messages its identifier names the pool key.
        public var kas: ResourceLocator
        /// The policy.
        public var policy: PolicyInput
        /// The binding mode.
        public var binding: BindingMode
        /// The cipher; Kith writes ``Cipher/aes256gcm128`` unless told otherwise.
        public var cipher: Cipher
        /// The format version; ``Version/v13`` also writes the recipient public key into the header.
        public var version: Version

        /// Creates a configuration; the defaults are Kith's dialect (L1L, GMAC binding, 128-bit tag).
        public init(
            kas: ResourceLocator, policy: PolicyInput, binding: BindingMode = .gmac,
            cipher: Cipher = .aes256gcm128, version: Version = .v12
        ) {
            self.kas = kas
            self.policy = policy
            self.binding = binding
            self.cipher = cipher
            self.version = version
        }
    }
}
