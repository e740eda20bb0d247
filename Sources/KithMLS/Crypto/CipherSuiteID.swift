/// The 16-bit cipher suite code point carried on the wire (RFC 9420 §17.1).
///
/// Any value decodes; use ``CipherSuite/init(_:)`` to obtain the operations of a supported suite.
public struct CipherSuiteID: RawRepresentable, Hashable, Sendable, TLSCodable, CustomStringConvertible {
    /// The code point.
    public var rawValue: UInt16

    /// Wraps a code point.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519 (mandatory to implement).
    public static let x25519AES128SHA256Ed25519 = CipherSuiteID(rawValue: 1)
    /// MLS_128_DHKEMP256_AES128GCM_SHA256_P256.
    public static let p256AES128SHA256P256 = CipherSuiteID(rawValue: 2)
    /// MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519 (used by XMTP).
    public static let x25519ChaChaSHA256Ed25519 = CipherSuiteID(rawValue: 3)
    /// MLS_256_DHKEMX448_AES256GCM_SHA512_Ed448 (not supported).
    public static let x448AES256SHA512Ed448 = CipherSuiteID(rawValue: 4)
    /// MLS_256_DHKEMP521_AES256GCM_SHA512_P521.
    public static let p521AES256SHA512P521 = CipherSuiteID(rawValue: 5)
    /// MLS_256_DHKEMX448_CHACHA20POLY1305_SHA512_Ed448 (not supported).
    public static let x448ChaChaSHA512Ed448 = CipherSuiteID(rawValue: 6)
    /// MLS_256_DHKEMP384_AES256GCM_SHA384_P384.
    public static let p384AES256SHA384P384 = CipherSuiteID(rawValue: 7)

    /// The suites this implementation can run.
    public static let supported: [CipherSuiteID] = [
        .x25519AES128SHA256Ed25519, .p256AES128SHA256P256, .x25519ChaChaSHA256Ed25519,
        .p521AES256SHA512P521, .p384AES256SHA384P384,
    ]

    /// Encodes the code point as `uint16`.
    public func encode(to writer: inout TLSWriter) { writer.writeUInt16(rawValue) }

    /// Decodes a `uint16` code point.
    public init(from reader: inout TLSReader) throws { rawValue = try reader.readUInt16() }

    /// `suite N`.
    public var description: String { "suite \(rawValue)" }
}
