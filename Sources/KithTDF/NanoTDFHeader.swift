import KithCanonical

extension NanoTDF {
    /// The NanoTDF header: everything before the payload.
    public struct Header: Sendable, Equatable {
        /// Magic and version ("L1L" or "L1M").
        public var version: Version
        /// The KAS resource locator; its identifier carries a key id (Kith: the one-time pool key id).
        public var kas: ResourceLocator
        /// Version 13 only: the recipient's compressed public key after the locator (its curve, its bytes).
        public var recipientPublicKey: (curve: Curve, key: [UInt8])? {
            get { recipientKeyStorage.map { ($0.curve, $0.key) } }
            set { recipientKeyStorage = newValue.map { RecipientKey(curve: $0.curve, key: $0.key) } }
        }
        /// True when the policy binding is an ECDSA signature (bit 7 of the ECC mode byte).
        public var usesECDSABinding: Bool
        /// The curve of the ephemeral key (bits 2-0 of the ECC mode byte).
        public var ephemeralCurve: Curve
        /// True when a signature follows the payload (bit 7 of the payload config byte).
        public var hasSignature: Bool
        /// The curve of the signature key (bits 6-4 of the payload config byte).
        public var signatureCurve: Curve
        /// The symmetric cipher and tag size (bits 3-0 of the payload config byte).
        public var cipher: Cipher
        /// The policy and its binding.
        public var policy: Policy
        /// The sender's per-message compressed ephemeral public key.
        public var ephemeralPublicKey: [UInt8]

        private var recipientKeyStorage: RecipientKey?

        private struct RecipientKey: Sendable, Equatable {
            var curve: Curve
            var key: [UInt8]
        }

        /// Creates a header from its fields; ``NanoTDF/init(header:payload:signature:)`` checks their consistency.
        public init(
            version: Version = .v12, kas: ResourceLocator, recipientPublicKey: (curve: Curve, key: [UInt8])? = nil,
            usesECDSABinding: Bool, ephemeralCurve: Curve, hasSignature: Bool = false,
            signatureCurve: Curve = .secp256r1, cipher: Cipher, policy: Policy, ephemeralPublicKey: [UInt8]
        ) {
            self.version = version
            self.kas = kas
            self.recipientKeyStorage = recipientPublicKey.map { RecipientKey(curve: $0.curve, key: $0.key) }
            self.usesECDSABinding = usesECDSABinding
            self.ephemeralCurve = ephemeralCurve
            self.hasSignature = hasSignature
            self.signatureCurve = signatureCurve
            self.cipher = cipher
            self.policy = policy
            self.ephemeralPublicKey = ephemeralPublicKey
        }

        /// Two headers are equal when every field is.
        public static func == (lhs: Header, rhs: Header) -> Bool {
            lhs.version == rhs.version && lhs.kas == rhs.kas && lhs.recipientKeyStorage == rhs.recipientKeyStorage
                && lhs.usesECDSABinding == rhs.usesECDSABinding && lhs.ephemeralCurve == rhs.ephemeralCurve
                && lhs.hasSignature == rhs.hasSignature && lhs.signatureCurve == rhs.signatureCurve
                && lhs.cipher == rhs.cipher && lhs.policy == rhs.policy && lhs.ephemeralPublicKey == rhs.ephemeralPublicKey
        }

        /// The canonical wire bytes of the header.
        public var serialized: [UInt8] {
            var writer = ByteWriter(capacity: 128)
            write(to: &writer)
            return writer.bytes
        }

        func write(to writer: inout ByteWriter) {
            writer.write(bytes: version.magicBytes)
            kas.write(to: &writer)
            if version == .v13, let recipient = recipientKeyStorage {
                writer.write(recipient.curve.rawValue)
                writer.write(bytes: recipient.key)
            }
            writer.write((usesECDSABinding ? 0x80 : 0) | ephemeralCurve.rawValue)
            writer.write((hasSignature ? 0x80 : 0) | signatureCurve.rawValue << 4 | cipher.rawValue)
            policy.write(to: &writer)
            writer.write(bytes: ephemeralPublicKey)
        }

        static func read(from cursor: inout NanoTDFCursor, options: ReadOptions) throws(NanoTDFError) -> Header {
            let version = try Version.read(from: &cursor)
            let kas = try ResourceLocator.read(from: &cursor, field: "KAS locator")
            var recipient: (curve: Curve, key: [UInt8])?
            if version == .v13 {
                let curve = try Curve.decode(try cursor.readByte("recipient key curve"), field: "recipient key curve")
                let key = try curve.readCompressedKey(from: &cursor, field: "recipient public key")
                recipient = (curve, key)
            }
            let eccMode = try cursor.readByte("ECC and binding mode")
            guard eccMode & 0x78 == 0 else { throw .reservedBitsSet(field: "ECC and binding mode", value: eccMode) }
            let ephemeralCurve = try Curve.decode(eccMode & 0x07, field: "ephemeral curve")
            let config = try cursor.readByte("symmetric and payload config")
            let signatureCurve = try Curve.decode((config >> 4) & 0x07, field: "signature curve")
            guard let cipher = Cipher(rawValue: config & 0x0F) else { throw .unknownCipher(config & 0x0F) }
            let policy = try Policy.read(
                from: &cursor, curve: ephemeralCurve, cipher: cipher, ecdsaBinding: eccMode & 0x80 != 0, options: options)
            let ephemeralKey = try ephemeralCurve.readCompressedKey(from: &cursor, field: "ephemeral public key")
            return Header(
                version: version, kas: kas, recipientPublicKey: recipient, usesECDSABinding: eccMode & 0x80 != 0,
                ephemeralCurve: ephemeralCurve, hasSignature: config & 0x80 != 0, signatureCurve: signatureCurve,
                cipher: cipher, policy: policy, ephemeralPublicKey: ephemeralKey)
        }

        func validate() throws(NanoTDFError) {
            guard ephemeralPublicKey.count == ephemeralCurve.compressedKeySize,
                ephemeralPublicKey.first == 0x02 || ephemeralPublicKey.first == 0x03
            else { throw .invalidPublicKey(field: "ephemeral public key") }
            if version == .v13 {
                guard let recipient = recipientKeyStorage, recipient.key.count == recipient.curve.compressedKeySize else {
                    throw .invalidPublicKey(field: "recipient public key")
                }
            }
            try policy.validate(cipher: cipher)
            try policy.binding.validate(ecdsaMode: usesECDSABinding, curve: ephemeralCurve)
        }
    }
}
