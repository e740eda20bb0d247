import KithConvos

extension ConversationTag {
    /// Checks a tag against the strict rule.
    ///
    /// - Throws: ``ConversationMetadataError/invalidTag(_:)`` unless `text` is exactly 10 characters of
    ///   `[A-Za-z0-9]`.
    public init(_ text: String) throws(ConversationMetadataError) {
        guard let tag = ConversationTag(validating: text) else { throw .invalidTag(text) }
        self = tag
    }
}
