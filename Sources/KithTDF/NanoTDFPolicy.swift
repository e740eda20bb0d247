import KithCanonical

extension NanoTDF {
    /// The policy section of the header: its body and the binding that ties it to the payload key.
    public struct Policy: Sendable, Equatable {
        /// The four policy kinds of the format.
        public enum Body: Sendable, Equatable {
            /// Type 0x00: the policy lives at a resource locator.
            case remote(ResourceLocator)
            /// Type 0x01: the policy bytes in clear.
            case embeddedPlaintext([UInt8])
            /// Type 0x02: the policy encrypted under the payload key with a zero nonce; the content is `ciphertext ‖ tag`.
            case embeddedEncrypted([UInt8])
            /// Type 0x03: the policy encrypted under a key from a separate ephemeral key; parsed and written, not decrypted.
            case embeddedEncryptedWithKeyAccess(ciphertext: [UInt8], locator: ResourceLocator, ephemeralPublicKey: [UInt8])

            /// The policy type byte.
            public var typeCode: UInt8 {
                switch self {
                case .remote: 0x00
                case .embeddedPlaintext: 0x01
                case .embeddedEncrypted: 0x02
                case .embeddedEncryptedWithKeyAccess: 0x03
                }
            }

            /// The body as written between the type byte and the binding: the locator of a remote policy, else
            /// the 2-byte length, the content and (type 0x03) the key access. OpenTDFKit's GMAC binding covers this.
            public var wireForm: [UInt8] {
                var writer = ByteWriter(capacity: 64)
                writeWireForm(to: &writer)
                return writer.bytes
            }

            func writeWireForm(to writer: inout ByteWriter) {
                switch self {
                case .remote(let locator):
                    locator.write(to: &writer)
                case .embeddedPlaintext(let content), .embeddedEncrypted(let content):
                    writer.write(UInt16(truncatingIfNeeded: content.count))
                    writer.write(bytes: content)
                case .embeddedEncryptedWithKeyAccess(let ciphertext, let locator, let key):
                    writer.write(UInt16(truncatingIfNeeded: ciphertext.count))
                    writer.write(bytes: ciphertext)
                    locator.write(to: &writer)
                    writer.write(bytes: key)
                }
            }

            /// The bytes a policy binding covers: the locator bytes of a remote policy, else the content without its length.
            public var bindingMessage: [UInt8] {
                switch self {
                case .remote(let locator): locator.serialized
                case .embeddedPlaintext(let content), .embeddedEncrypted(let content): content
                case .embeddedEncryptedWithKeyAccess(let ciphertext, _, _): ciphertext
                }
            }
        }

        /// What the policy says, or where it is.
        public var body: Body
        /// The binding over ``Body/bindingMessage``.
        public var binding: PolicyBinding

        /// Creates a policy section from its parts.
        public init(body: Body, binding: PolicyBinding) {
            self.body = body
            self.binding = binding
        }

        func write(to writer: inout ByteWriter) {
            writer.write(body.typeCode)
            body.writeWireForm(to: &writer)
            binding.write(to: &writer)
        }

        static func read(
            from cursor: inout NanoTDFCursor, curve: Curve, cipher: Cipher, ecdsaBinding: Bool, options: ReadOptions
        ) throws(NanoTDFError) -> Policy {
            let type = try cursor.readByte("policy type")
            let body: Body
            switch type {
            case 0x00:
                body = .remote(try ResourceLocator.read(from: &cursor, field: "remote policy locator"))
            case 0x01:
                body = .embeddedPlaintext(try readContent(from: &cursor))
            case 0x02:
                let content = try readContent(from: &cursor)
                guard content.count >= cipher.tagSize else {
                    throw .policyShorterThanTag(length: content.count, tagSize: cipher.tagSize)
                }
                body = .embeddedEncrypted(content)
            case 0x03:
                let content = try readContent(from: &cursor)
                let locator = try ResourceLocator.read(from: &cursor, field: "policy key access locator")
                let key = try curve.readCompressedKey(from: &cursor, field: "policy key access ephemeral key")
                body = .embeddedEncryptedWithKeyAccess(ciphertext: content, locator: locator, ephemeralPublicKey: key)
            default:
                throw .unknownPolicyType(type)
            }
            let binding = try PolicyBinding.read(
                from: &cursor, ecdsa: ecdsaBinding, curve: curve, encoding: options.ecdsaBindingEncoding)
            return Policy(body: body, binding: binding)
        }

        private static func readContent(from cursor: inout NanoTDFCursor) throws(NanoTDFError) -> [UInt8] {
            let length = Int(try cursor.readUInt16("policy content length"))
            guard length > 0 else { throw .emptyPolicy }
            return try cursor.read(length, "policy content")
        }

        func validate(cipher: Cipher) throws(NanoTDFError) {
            switch body {
            case .remote:
                break
            case .embeddedPlaintext(let content), .embeddedEncrypted(let content),
                .embeddedEncryptedWithKeyAccess(let content, _, _):
                guard !content.isEmpty else { throw .emptyPolicy }
                guard content.count <= NanoTDFLimits.maximumPolicyContentLength else {
                    throw .policyTooLarge(length: content.count, maximum: NanoTDFLimits.maximumPolicyContentLength)
                }
            }
            if case .embeddedEncrypted(let content) = body, content.count < cipher.tagSize {
                throw .policyShorterThanTag(length: content.count, tagSize: cipher.tagSize)
            }
        }
    }
}
