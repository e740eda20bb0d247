import Crypto
import KithCanonical

/// A group's identifier: 32 random bytes chosen by its creator, written as 43 characters of base64url
/// (spec 4.2, the `group:{group_id}` audience and `group_event.group_id`).
///
/// Kith uses the same 32 bytes as the MLS `group_id` (RFC 9420 §8.1), so the feed-level id and the MLS id never
/// need a mapping table.
public struct GroupID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 43-character base64url text.
    public let string: String

    /// The raw 32 bytes (the MLS group id).
    public let rawBytes: [UInt8]

    /// Parses a group id; anything but canonical base64url of exactly 32 bytes is rejected.
    public init(_ text: String) throws(GroupError) {
        guard let raw = try? Base64URL.decode(text, expectedLength: 32) else {
            throw .invalidGroupID(text)
        }
        string = text
        rawBytes = raw
    }

    /// Wraps 32 raw bytes (an MLS group id).
    public init(rawBytes: [UInt8]) throws(GroupError) {
        guard rawBytes.count == 32 else { throw .invalidGroupID("\(rawBytes.count) raw bytes") }
        self.rawBytes = rawBytes
        string = Base64URL.encode(rawBytes)
    }

    /// A fresh random group id. Its text never begins with `-`: a command line reads such an argument as options
    /// (`kith group show -h…` printed the help), so the one draw in 64 that would is drawn again.
    public static func random() -> GroupID {
        while true {
            let raw = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            // 32 bytes by construction; base64url's first character is `-` when the top six bits are 62.
            if raw[0] >> 2 != 62 { return GroupID(unchecked: raw) }
        }
    }

    private init(unchecked raw: [UInt8]) {
        rawBytes = raw
        string = Base64URL.encode(raw)
    }

    /// The envelope audience of the group's messages: `group:{group_id}`.
    public var audience: String { "group:" + string }

    public var description: String { string }

    public static func < (lhs: GroupID, rhs: GroupID) -> Bool {
        lhs.string.utf8.lexicographicallyPrecedes(rhs.string.utf8)
    }
}
