import Crypto
import KithCanonical

/// A feed identifier as the ratchet sees it: `base64url-no-pad(SHA-256(Ed25519 public key))`,
/// 43 characters, validated once. Names the peer in ``SessionStore``, ``PrekeyStore`` and
/// ``PeerPrekeyStore``.
public struct FeedID: Sendable, Hashable, CustomStringConvertible {
    /// The 43-character text form.
    public let string: String

    /// Validates a feed_id's text form.
    ///
    /// - Throws: ``RatchetError/invalidFeedID(_:)`` unless it is 43 canonical base64url characters.
    public init(_ string: String) throws(RatchetError) {
        try Self.validate(string)
        self.string = string
    }

    /// The feed_id of an Ed25519 public key.
    public init(ed25519PublicKey: [UInt8]) {
        string = Self.of(ed25519PublicKey: ed25519PublicKey)
    }

    /// A text form already validated (e.g. by ``PeerIdentity``).
    init(validated string: String) {
        self.string = string
    }

    /// The text form.
    public var description: String { string }

    /// The feed_id of an Ed25519 public key.
    public static func of(ed25519PublicKey: [UInt8]) -> String {
        Base64URL.encode(Array(SHA256.hash(data: ed25519PublicKey)))
    }

    /// Throws unless `feedID` is 43 canonical base64url characters encoding 32 bytes.
    public static func validate(_ feedID: String) throws(RatchetError) {
        // Allocation-free equivalent of `Base64URL.decode(feedID, expectedLength: 32)`: 43 characters
        // of the URL-safe alphabet, the last one carrying two zero padding bits.
        var count = 0
        var last: UInt8 = 0
        for byte in feedID.utf8 {
            guard let value = alphabetValue(byte) else { throw .invalidFeedID(feedID) }
            last = value
            count += 1
        }
        guard count == RatchetConstants.feedIDLength, last & 0x03 == 0 else { throw .invalidFeedID(feedID) }
    }

    @inline(__always)
    private static func alphabetValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// The session-initiation tie-break: true when `lhs` sorts before `rhs` by ASCII bytes.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }
}
