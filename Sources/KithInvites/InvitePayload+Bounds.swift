extension InvitePayload {
    /// Kith's bounds, stricter than Convos': the preview fields within ``InviteLimits`` (name 128, description
    /// 1,024, image URL 2,048, emoji 64 bytes), the tag 10 characters of `[A-Za-z0-9]`, the image URL `https:` when
    /// present. Checked by a Kith creator before signing and by a Kith joiner before acting.
    ///
    /// - Throws: ``InviteError/fieldSizeOutOfRange(field:bytes:)`` or ``InviteError/invalidTag(_:)``.
    public func checkKithBounds() throws(InviteError) {
        let fields: [(String, String?, Int)] = [
            ("name", name, InviteLimits.maxNameBytes), ("description", description, InviteLimits.maxDescriptionBytes),
            ("imageURL", imageURL, InviteLimits.maxImageURLBytes), ("emoji", emoji, InviteLimits.maxEmojiBytes),
        ]
        for (field, value, limit) in fields {
            if let value, value.utf8.count > limit { throw .fieldSizeOutOfRange(field: field, bytes: value.utf8.count) }
        }
        guard tag.utf8.count == InviteLimits.conversationTagLength, tag.utf8.allSatisfy({ byte in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }) else { throw .invalidTag(tag) }
        if let imageURL, !imageURL.lowercased().hasPrefix("https://") {
            throw .fieldSizeOutOfRange(field: "imageURL (https only)", bytes: imageURL.utf8.count)
        }
    }
}
