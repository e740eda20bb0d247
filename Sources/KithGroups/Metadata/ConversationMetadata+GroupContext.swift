import KithMLS

extension ConversationMetadata {
    /// Reads the metadata from a GroupContext's extensions: the `app_data` attribute of the `0xff00` extension.
    ///
    /// Returns `nil` when the group has no `0xff00` extension or no `app_data` attribute (a group no one has given
    /// metadata yet).
    ///
    /// - Throws: ``ConversationMetadataError`` when the extension or the appData in it is malformed or out of bounds.
    public init?(groupContextExtensions extensions: [Extension]) throws(ConversationMetadataError) {
        guard let container = try GroupMutableMetadata(extensions: extensions), let appData = container.appData else {
            return nil
        }
        try self.init(appData: appData)
    }

    /// The `0xff00` extension carrying this metadata, built on the one in `extensions`.
    ///
    /// Every other attribute, both admin lists and any unknown fields of the current extension are kept; only
    /// `app_data` changes. Without a current extension, the result holds `app_data` alone.
    ///
    /// - Throws: ``ConversationMetadataError/malformedProtobuf(_:)`` when the current extension cannot be read (it is
    ///   never silently replaced).
    public func groupContextExtension(updating extensions: [Extension]) throws(ConversationMetadataError) -> Extension {
        var container = try GroupMutableMetadata(extensions: extensions) ?? GroupMutableMetadata()
        container.appData = encodedAppData()
        return try container.groupContextExtension()
    }

    /// `extensions` with the `0xff00` extension replaced by ``groupContextExtension(updating:)`` (in place, or
    /// appended): the extension list of a GroupContextExtensions proposal that changes only this metadata.
    ///
    /// - Throws: as ``groupContextExtension(updating:)``.
    public func placed(in extensions: [Extension]) throws(ConversationMetadataError) -> [Extension] {
        let updated = try groupContextExtension(updating: extensions)
        var result = extensions
        if let index = result.firstIndex(where: { $0.type == GroupMutableMetadata.extensionType }) {
            result[index] = updated
        } else {
            result.append(updated)
        }
        return result
    }
}
