/// The operations of one supported MLS cipher suite (RFC 9420 §5.1, §17.1).
///
/// A small value type: a suite is chosen by ``CipherSuiteID`` and dispatches to swift-crypto by `switch`.
public struct CipherSuite: Sendable, Hashable, CustomStringConvertible {
    /// The wire code point.
    public let id: CipherSuiteID
    /// The hash, HMAC and HKDF of the suite.
    public let hash: HashAlgorithm
    /// The AEAD of the suite.
    public let aead: AEADAlgorithm
    /// The HPKE KEM of the suite.
    public let kem: KEMAlgorithm
    /// The signature scheme of the suite.
    public let signature: SignatureAlgorithm

    /// Selects a supported suite; throws ``MLSCryptoError/unsupportedCipherSuite(_:)`` for 4, 6 (X448/Ed448) and unknown values.
    public init(_ id: CipherSuiteID) throws {
        switch id.rawValue {
        case 1: (hash, aead, kem, signature) = (.sha256, .aes128GCM, .x25519, .ed25519)
        case 2: (hash, aead, kem, signature) = (.sha256, .aes128GCM, .p256, .p256)
        case 3: (hash, aead, kem, signature) = (.sha256, .chaCha20Poly1305, .x25519, .ed25519)
        case 5: (hash, aead, kem, signature) = (.sha512, .aes256GCM, .p521, .p521)
        case 7: (hash, aead, kem, signature) = (.sha384, .aes256GCM, .p384, .p384)
        default: throw MLSCryptoError.unsupportedCipherSuite(id.rawValue)
        }
        self.id = id
    }

    /// Selects a supported suite by its numeric code point.
    public init(rawValue: UInt16) throws { try self.init(CipherSuiteID(rawValue: rawValue)) }

    /// `KDF.Nh`: the hash and secret size.
    public var secretSize: Int { hash.outputSize }

    /// `suite N`.
    public var description: String { id.description }

    // MARK: Hash and MAC

    /// `Hash(data)`.
    public func digest(_ data: [UInt8]) -> [UInt8] { hash.hash(data) }

    /// `MAC(key, data)` (HMAC with the suite hash).
    public func mac(key: [UInt8], data: [UInt8]) -> [UInt8] { hash.mac(key: key, data: data) }

    /// `KDF.Extract(salt, ikm)`.
    public func extract(salt: [UInt8], ikm: [UInt8]) -> [UInt8] { hash.extract(salt: salt, ikm: ikm) }

    /// An all-zero secret of `Nh` bytes.
    public var zeroSecret: [UInt8] { [UInt8](repeating: 0, count: secretSize) }
}
