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
        /// The dialect: nonce layout, binding and salt (``NanoTDFDialect/sdk`` unless told otherwise).
        public var dialect: NanoTDFDialect

        /// Creates a configuration; the defaults are Kith's dialect (L1L, GMAC binding, 128-bit tag).
        public init(
            kas: ResourceLocator, policy: PolicyInput, binding: BindingMode = .gmac,
            cipher: Cipher = .aes256gcm128, version: Version = .v12, dialect: NanoTDFDialect = .sdk
        ) {
            self.kas = kas
            self.policy = policy
            self.binding = binding
            self.cipher = cipher
            self.version = version
            self.dialect = dialect
        }

        /// What the Arkavo app's reader opens: an "L1M" header with the recipient key, a locator protocol it
        /// knows (https here), a plaintext policy with a zero-nonce GCM-tag binding, a 128-bit tag; the payload
        /// key is salted with "L1L" and the nonce is `IV ‖ 00×9` (docs/TDF.md, "Dialects").
        public static func arkavoApp(kas: ResourceLocator, policy: [UInt8]) -> EncryptionConfiguration {
            EncryptionConfiguration(kas: kas, policy: .plaintext(policy), version: .v13, dialect: .arkavo)
        }

        /// Refuses what the dialect's readers would not accept.
        func validate(plaintextCount: Int) throws(NanoTDFError) {
            guard dialect == .arkavo else { return }
            func refuse(_ reason: String) -> NanoTDFError { .unsupportedInDialect(dialect: dialect.name, reason: reason) }
            guard version == .v13 else { throw refuse("the Arkavo app's reader opens only L1M headers that carry the recipient key") }
            guard kas.scheme != .sharedResourceDirectory else {
                throw refuse("the Arkavo app's parser refuses locator protocol 0x0F; use an http or https locator")
            }
            guard String(validating: kas.body, as: UTF8.self) != nil else {
                throw refuse("the Arkavo app's parser needs a UTF-8 locator body")
            }
            if case .encrypted = policy {
                throw refuse("OpenTDFKit keeps an encrypted policy without its tag; write a plaintext policy")
            }
            guard binding == .gmac else { throw refuse("OpenTDFKit reads only 8-byte GMAC bindings") }
            guard cipher == .aes256gcm128 else { throw refuse("the Arkavo app's reader needs a 128-bit tag") }
            guard plaintextCount > 0 else { throw refuse("the Arkavo app's reader refuses an empty ciphertext") }
        }
    }
}
