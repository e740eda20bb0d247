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

    /// True for one emoji of 1...4 scalars, by a grammar that depends on no Unicode table but
    /// ``EmojiTable`` (frozen at Unicode 17.0):
    ///
    ///     emoji    = keycap | flag | element *(ZWJ element)
    ///     keycap   = ("0"..."9" | "#" | "*") [VS16] U+20E3
    ///     flag     = RI RI                      ; two regional indicators
    ///     element  = E [VS16 | modifier]       ; E: Emoji=Yes, not ASCII, not a regional indicator
    public static func isSingleEmoji(_ text: String) -> Bool {
        let scalars = text.unicodeScalars.map(\.value)
        guard (1...FeedLimits.maxEmojiScalars).contains(scalars.count) else { return false }
        if scalars.last == 0x20E3 {
            let base = scalars[0]
            let isBase = (0x30...0x39).contains(base) || base == 0x23 || base == 0x2A
            return isBase && (scalars.count == 2 || (scalars.count == 3 && scalars[1] == 0xFE0F))
        }
        if scalars.count == 2, scalars.allSatisfy({ EmojiTable.regionalIndicators.contains($0) }) { return true }
        var index = 0
        while true {
            // One element: an emoji, then at most one variation selector or skin-tone modifier.
            let base = scalars[index]
            guard base > 0x7F, !EmojiTable.regionalIndicators.contains(base), EmojiTable.isEmoji(base) else { return false }
            index += 1
            if index < scalars.count, scalars[index] == 0xFE0F || EmojiTable.modifiers.contains(scalars[index]) { index += 1 }
            if index == scalars.count { return true }
            // Elements are joined by ZWJ, and a joiner is always followed by an element.
            guard scalars[index] == 0x200D, index + 1 < scalars.count else { return false }
            index += 1
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["target_message"] = .string(targetMessage.string)
        object["emoji"] = .string(emoji)
        return object
    }
}
