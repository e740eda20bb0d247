import KithMLS
import SwiftProtobuf

/// XMTP's mutable group metadata (`GroupMutableMetadataV1`), the payload of GroupContext extension `0xff00`.
///
/// libxmtp keeps the group name, description, image URL and, under ``appDataAttribute``, the Convos conversation
/// metadata in ``attributes``, next to the admin lists. A GroupContextExtensions proposal rewrites the whole
/// extension, so a writer must carry over everything it does not mean to change: this value keeps the other
/// attributes, both lists and any unknown fields exactly as read.
public struct GroupMutableMetadata: Sendable, Hashable {
    /// The extension type carrying it.
    public static let extensionType = ExtensionType.xmtpGroupMutableMetadata

    /// The attribute holding the Convos appData text.
    public static let appDataAttribute = "app_data"

    /// The protobuf record.
    private(set) var message: Xmtp_Mls_MessageContents_GroupMutableMetadataV1

    /// Empty metadata: no attributes, no admin lists.
    public init() {
        message = Xmtp_Mls_MessageContents_GroupMutableMetadataV1()
    }

    /// Reads the extension payload.
    ///
    /// - Throws: ``ConversationMetadataError/malformedProtobuf(_:)`` when the bytes are not the protobuf.
    public init(extensionData: [UInt8]) throws(ConversationMetadataError) {
        do {
            message = try Xmtp_Mls_MessageContents_GroupMutableMetadataV1(
                serializedBytes: extensionData, options: AppDataCodec.decodingOptions)
        } catch {
            throw .malformedProtobuf("group mutable metadata (0xff00): \(error)")
        }
    }

    /// Reads the `0xff00` extension from a GroupContext's extensions; `nil` when there is none.
    ///
    /// - Throws: ``ConversationMetadataError/malformedProtobuf(_:)`` when the extension is not the protobuf.
    public init?(extensions: [Extension]) throws(ConversationMetadataError) {
        guard let data = extensions.data(of: Self.extensionType) else { return nil }
        try self.init(extensionData: data)
    }

    /// Free-form attributes (`group_name`, `description`, `group_image_url_square`, `app_data`, …).
    public var attributes: [String: String] {
        get { message.attributes }
        set { message.attributes = newValue }
    }

    /// The admins' inbox ids.
    public var adminInboxIDs: [String] {
        get { message.adminList.inboxIds }
        set { if newValue != adminInboxIDs { message.adminList.inboxIds = newValue } }
    }

    /// The super admins' inbox ids.
    public var superAdminInboxIDs: [String] {
        get { message.superAdminList.inboxIds }
        set { if newValue != superAdminInboxIDs { message.superAdminList.inboxIds = newValue } }
    }

    /// The Convos appData text, if the attribute is present.
    public var appData: String? {
        get { message.attributes[Self.appDataAttribute] }
        set { message.attributes[Self.appDataAttribute] = newValue }
    }

    /// The extension payload; map entries are sorted by key, so equal values give equal bytes.
    ///
    /// - Throws: ``ConversationMetadataError/encodingFailed(_:)`` only on an internal error of the protobuf library.
    public func extensionData() throws(ConversationMetadataError) -> [UInt8] {
        do {
            return try message.serializedBytes(options: AppDataCodec.encodingOptions)
        } catch {
            throw .encodingFailed("group mutable metadata (0xff00): \(error)")
        }
    }

    /// The GroupContext extension.
    ///
    /// - Throws: ``ConversationMetadataError/encodingFailed(_:)`` only on an internal error of the protobuf library.
    public func groupContextExtension() throws(ConversationMetadataError) -> Extension {
        Extension(type: Self.extensionType, data: try extensionData())
    }
}
