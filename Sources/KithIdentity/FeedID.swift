import Crypto
import Foundation
import KithCanonical

/// A feed's stable identifier: base64url(SHA-256(Ed25519 identity public key)), 43 characters.
///
/// The feed id never changes, not even when the identity key rotates (spec 2.1, 5.5).
/// Feed ids order by their ASCII text, which is how sorted feed-id pairs are concatenated.
public struct FeedID: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The 43-character base64url text.
    public let string: String

    /// The raw 32 bytes (SHA-256 output), as carried on the sync wire.
    public var rawBytes: [UInt8] {
        // `string` was validated at construction, so decoding cannot fail.
        (try? Base64URL.decode(string, expectedLength: 32)) ?? []
    }

    /// Derives the feed id of an Ed25519 identity public key.
    public init(identityKey: Curve25519.Signing.PublicKey) {
        string = Base64URL.encode(SHA256.hash(data: identityKey.rawRepresentation))
    }

    /// Parses a feed id; rejects anything but canonical base64url of exactly 32 bytes.
    public init(_ text: String) throws(IdentityError) {
        do {
            _ = try Base64URL.decode(text, expectedLength: 32)
        } catch {
            throw .invalidFeedID(text, reason: error.description)
        }
        string = text
    }

    /// Derives the feed id of raw Ed25519 public key bytes (32 bytes): base64url(SHA-256(key)).
    public init(ed25519PublicKey raw: [UInt8]) {
        string = Base64URL.encode(SHA256.hash(data: raw))
    }

    /// Wraps raw SHA-256 bytes (from the sync wire).
    public init(rawBytes: [UInt8]) throws(IdentityError) {
        guard rawBytes.count == 32 else { throw .invalidFeedID("\(rawBytes.count) raw bytes", reason: "a feed id is 32 bytes") }
        string = Base64URL.encode(rawBytes)
    }

    public var description: String { string }

    public static func < (lhs: FeedID, rhs: FeedID) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }

    public static func == (lhs: FeedID, rhs: FeedID) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        for byte in string.utf8 { hasher.combine(byte) }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
