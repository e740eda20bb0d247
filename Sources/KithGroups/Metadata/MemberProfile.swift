import Foundation
import KithIdentity

/// One member's entry in the conversation metadata: who it is and how it wants to be shown in this conversation.
///
/// Convos writes more per entry (an encrypted image reference, a deprecated connections blob, and possibly fields
/// added later); Kith keeps those as it read them, so writing the record back never drops what another client wrote.
public struct MemberProfile: Sendable, Hashable {
    /// The member: a Kith feed id, or for Convos members the raw 32-byte XMTP inbox id.
    public let feedID: FeedID

    /// The display name, if the member set one.
    public let name: String?

    /// The member's image (a plain URL, Convos' legacy form), if set.
    public let image: String?

    /// The entry's other fields, known and unknown, as read (id, name and image cleared).
    let preserved: Kith_Convos_ConversationProfile

    /// Creates a profile with no other fields.
    public init(feedID: FeedID, name: String? = nil, image: String? = nil) {
        self.init(feedID: feedID, name: name, image: image, preserved: Kith_Convos_ConversationProfile())
    }

    init(feedID: FeedID, name: String?, image: String?, preserved: Kith_Convos_ConversationProfile) {
        self.feedID = feedID
        self.name = name
        self.image = image
        self.preserved = preserved
    }

    /// Reads a protobuf entry.
    ///
    /// - Throws: ``ConversationMetadataError/invalidMemberID(bytes:)`` unless the id is 32 bytes.
    init(message: Kith_Convos_ConversationProfile) throws(ConversationMetadataError) {
        let id = [UInt8](message.inboxID)
        guard let feedID = try? FeedID(rawBytes: id) else { throw .invalidMemberID(bytes: id.count) }
        var rest = message
        rest.inboxID = Data()
        rest.clearName()
        rest.clearImage()
        self.init(
            feedID: feedID, name: message.hasName ? message.name : nil, image: message.hasImage ? message.image : nil,
            preserved: rest)
    }

    /// The protobuf entry: the preserved fields with the id, name and image put back.
    var message: Kith_Convos_ConversationProfile {
        var message = preserved
        message.inboxID = Data(feedID.rawBytes)
        if let name { message.name = name }
        if let image { message.image = image }
        return message
    }

    /// The same entry with a new name and image; everything else of the entry is kept.
    func with(name: String?, image: String?) -> MemberProfile {
        MemberProfile(feedID: feedID, name: name, image: image, preserved: preserved)
    }

    /// Checks the fields a member writes against ``MetadataLimits``.
    func checkWritableBounds() throws(ConversationMetadataError) {
        if let name, name.utf8.count > MetadataLimits.maxNameBytes {
            throw .fieldTooLong(field: "profile name", bytes: name.utf8.count, limit: MetadataLimits.maxNameBytes)
        }
        if let image, image.utf8.count > MetadataLimits.maxImageBytes {
            throw .fieldTooLong(field: "profile image", bytes: image.utf8.count, limit: MetadataLimits.maxImageBytes)
        }
    }
}
