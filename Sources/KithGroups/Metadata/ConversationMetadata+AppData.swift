extension ConversationMetadata {
    /// Reads Convos appData text: base64url without padding of a frame (``AppDataFrame``) around a
    /// `ConversationCustomMetadata` protobuf.
    ///
    /// The empty string is the empty record (no tag, no profiles). Compressed frames may hold raw or zlib-wrapped
    /// DEFLATE. Tags that do not follow the strict rule and profile fields of any length are accepted as written by
    /// another client; member ids must be 32 bytes.
    ///
    /// - Throws: ``ConversationMetadataError`` for text over 8 KiB, bad base64url, a frame that breaks a rule of
    ///   ``AppDataFrame``, bytes that are not the protobuf, a member id that is not 32 bytes, or too many profiles.
    public init(appData: String) throws(ConversationMetadataError) {
        try self.init(message: AppDataCodec.decode(appData))
    }
}
