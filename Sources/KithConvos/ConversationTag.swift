/// A conversation's invite tag: exactly 10 characters of `[A-Za-z0-9]`.
///
/// The creator sets it once; every invite carries it, and the creator admits a joiner only while the invite's tag
/// equals the group's (rotating the tag revokes every outstanding invite). Tags Kith writes are drawn uniformly
/// from the 62-character alphabet by rejection sampling, so no character is likelier than another (Convos' own
/// generator takes a random byte modulo 62, which favours the first eight characters).
///
/// Tags read from other clients are kept as text whatever their form (`KithGroups.ConversationMetadata.tag`); this
/// type is the strict rule for tags Kith writes. `KithGroups` adds the throwing `init(_:)` that reports a bad tag as
/// a conversation metadata error; here ``init(validating:)`` answers nil for one.
public struct ConversationTag: Sendable, Hashable, CustomStringConvertible {
    /// The number of characters in a tag.
    public static let length = 10

    /// The 62 characters a tag draws from.
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Random bytes at or above this value are redrawn: 248 = 4 × 62, so `byte % 62` is uniform below it.
    static let acceptBelow: UInt8 = 248

    /// The tag's text.
    public let string: String

    /// Checks a tag against the strict rule: nil unless `text` is exactly 10 characters of `[A-Za-z0-9]`.
    public init?(validating text: String) {
        guard Self.isValid(text) else { return nil }
        string = text
    }

    private init(unchecked text: String) {
        string = text
    }

    /// True when `text` is exactly 10 characters of `[A-Za-z0-9]`.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        return bytes.count == length && bytes.allSatisfy { byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// A fresh tag from the system's cryptographically secure generator.
    public static func random() -> ConversationTag {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// A fresh tag drawn from `generator` (tests pass a seeded one).
    ///
    /// Each character takes one random byte (the low byte of one `next()`); bytes of 248 or more are discarded and
    /// redrawn, the rest pick `alphabet[byte % 62]`.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> ConversationTag {
        var characters: [UInt8] = []
        characters.reserveCapacity(length)
        while characters.count < length {
            let byte = UInt8(truncatingIfNeeded: generator.next())
            if byte < acceptBelow {
                characters.append(alphabet[Int(byte % 62)])
            }
        }
        return ConversationTag(unchecked: String(decoding: characters, as: UTF8.self))
    }

    /// The tag's text.
    public var description: String { string }
}
