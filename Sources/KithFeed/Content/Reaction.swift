import KithCanonical

/// An emoji reaction to a message (spec 5.2).
public struct Reaction: Sendable, Hashable {
    /// The message reacted to.
    public var targetMessage: MessageID
    /// One emoji: 1...4 Unicode scalars forming a single character.
    public var emoji: String

    /// Creates a reaction; the emoji is checked when encoded or parsed.
    public init(targetMessage: MessageID, emoji: String) {
        self.targetMessage = targetMessage
        self.emoji = emoji
    }

    init(_ fields: ContentFields) throws(FeedError) {
        targetMessage = try fields.messageID(try fields.requiredString("target_message"), "target_message")
        emoji = try fields.requiredString("emoji")
        guard Reaction.isSingleEmoji(emoji) else {
            throw fields.fail("'emoji' must be a single emoji of 1...\(FeedLimits.maxEmojiScalars) code points")
        }
    }

    /// True for one user-perceived character of 1...4 scalars that is an emoji: at least one
    /// scalar with the Emoji property, the others joiners, variation selectors or modifiers.
    public static func isSingleEmoji(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard (1...FeedLimits.maxEmojiScalars).contains(scalars.count), text.count == 1 else { return false }
        var sawEmoji = false
        for scalar in scalars {
            let properties = scalar.properties
            if properties.isEmoji && (scalar.value > 0x7F) {
                sawEmoji = true
            } else if scalar.value == 0x200D || scalar.value == 0xFE0F || scalar.value == 0x20E3 || properties.isEmojiModifier
                        || (0xE0020...0xE007F).contains(scalar.value) {
                continue
            } else if properties.isEmoji {
                // Digits, '#' and '*' are Emoji only as keycap bases.
                continue
            } else {
                return false
            }
        }
        return sawEmoji || scalars.contains { $0.value == 0x20E3 }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["target_message"] = .string(targetMessage.string)
        object["emoji"] = .string(emoji)
        return object
    }
}
