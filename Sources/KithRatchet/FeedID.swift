import Crypto
import KithCanonical

/// Feed identifiers as the ratchet sees them: `base64url-no-pad(SHA-256(Ed25519 public key))`.
public enum FeedID {
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
