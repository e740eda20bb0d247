import Crypto
import KithCanonical

/// A message's identifier: base64url(SHA-256(canonical bytes of the full signed envelope)),
/// 43 characters (spec 6). Also the value of the next message's `previous`.
public struct MessageID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 43-character base64url text.
    public let string: String

    /// The SHA-256 of canonical envelope bytes.
    public init<Bytes: Collection>(hashing canonicalEnvelope: Bytes) where Bytes.Element == UInt8 {
        string = Base64URL.encode(SHA256.hash(data: Array(canonicalEnvelope)))
    }

    /// Parses a message id; anything but canonical base64url of 32 bytes is rejected.
    public init(_ text: String) throws(FeedError) {
        do {
            _ = try Base64URL.decode(text, expectedLength: 32)
        } catch {
            throw .invalidField("message id", reason: error.description)
        }
        string = text
    }

    /// Wraps the raw 32 bytes carried by the sync wire.
    public init(rawBytes: [UInt8]) throws(FeedError) {
        guard rawBytes.count == 32 else { throw .invalidField("message id", reason: "must be 32 bytes") }
        string = Base64URL.encode(rawBytes)
    }

    /// The raw 32 bytes.
    public var rawBytes: [UInt8] { (try? Base64URL.decode(string, expectedLength: 32)) ?? [] }

    public var description: String { string }

    public static func < (lhs: MessageID, rhs: MessageID) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    public static func == (lhs: MessageID, rhs: MessageID) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        for byte in string.utf8 { hasher.combine(byte) }
    }
}
