import Crypto
import KithCanonical

/// What a new device shows its guardians to ask for their shares: the feed it claims to recover, an ephemeral
/// X25519 public key the releases are sealed to, and a nonce that makes each request (and its releases) single use.
///
/// Binary form: magic "KRQ" | version u8 = 0x01 | owner feed id 32 | X25519 public key 32 | nonce 16.
/// Text form: the base64url of the binary form (short enough for a QR code).
public struct RecoveryRequest: Sendable, Equatable {
    /// The format version written and read.
    public static let version: UInt8 = 0x01
    static let magic: [UInt8] = Array("KRQ".utf8)
    static let encodedBytes = 4 + RecoveryLimits.feedIDBytes + 32 + RecoveryLimits.requestNonceBytes

    /// The raw 32 bytes of the feed id the new device claims.
    public let ownerFeedID: [UInt8]
    /// The raw X25519 public key releases are sealed to.
    public let publicKey: [UInt8]
    /// The request's random nonce.
    public let nonce: [UInt8]

    init(ownerFeedID: [UInt8], publicKey: [UInt8], nonce: [UInt8]) {
        self.ownerFeedID = ownerFeedID
        self.publicKey = publicKey
        self.nonce = nonce
    }

    /// The binary form.
    public var encoded: [UInt8] { Self.magic + [Self.version] + ownerFeedID + publicKey + nonce }

    /// The text form (base64url of `encoded`).
    public var text: String { Base64URL.encode(encoded) }

    /// The code both the new device and the guardian show, compared aloud before a guardian releases its share:
    /// twelve digits from SHA-256("Kith_RecoverySafety_v1" | encoded request). A relay that substituted its own key
    /// or nonce would show a different code on the guardian's side.
    public var safetyCode: String {
        let digest = Array(SHA256.hash(data: Array("Kith_RecoverySafety_v1".utf8) + encoded))
        let number = digest.prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) } % 1_000_000_000_000
        let digits = String(number)
        let padded = String(repeating: "0", count: 12 - digits.count) + digits
        return stride(from: 0, to: 12, by: 4).map { offset in
            let start = padded.index(padded.startIndex, offsetBy: offset)
            return String(padded[start..<padded.index(start, offsetBy: 4)])
        }.joined(separator: " ")
    }

    /// Reads the binary form.
    /// - Throws: `RecoveryError.malformed` for a wrong length, magic or version, or an invalid X25519 key.
    public init(encoded bytes: [UInt8]) throws(RecoveryError) {
        guard bytes.count == Self.encodedBytes else {
            throw .malformed(kind: "request", reason: "\(bytes.count) bytes, expected \(Self.encodedBytes)")
        }
        guard Array(bytes.prefix(3)) == Self.magic else { throw .malformed(kind: "request", reason: "not a request") }
        guard bytes[3] == Self.version else { throw .malformed(kind: "request", reason: "unknown version \(bytes[3])") }
        var reader = ByteReader(bytes.dropFirst(4))
        do {
            ownerFeedID = try reader.readBytes(RecoveryLimits.feedIDBytes)
            publicKey = try reader.readBytes(32)
            nonce = try reader.readBytes(RecoveryLimits.requestNonceBytes)
            try reader.expectEnd()
        } catch {
            throw .malformed(kind: "request", reason: error.description)
        }
        guard (try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)) != nil else {
            throw .malformed(kind: "request", reason: "not an X25519 public key")
        }
    }

    /// Reads the text form.
    public init(text: String) throws(RecoveryError) {
        try self.init(encoded: try RecoveryText.decode(text, kind: "request", maxBytes: Self.encodedBytes))
    }
}
