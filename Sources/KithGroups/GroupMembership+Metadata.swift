import KithConvos
import KithIdentity
import KithMLS

/// The conversation's shared settings, read from the GroupContext every member agrees on.
extension GroupMembership {
    /// The XMTP attribute carrying the group's name in the `0xff00` extension.
    public static let nameAttribute = "group_name"

    /// The Convos conversation metadata (tag, profiles, explosion time), if the group carries it and it is readable.
    public var metadata: ConversationMetadata? {
        (try? ConversationMetadata(groupContextExtensions: state.context.extensions)) ?? nil
    }

    /// The longest group name taken from the metadata (what `createGroup` allows); a longer one is ignored.
    public static let maxNameBytes = 128

    /// The group's name, as its committer set it (nil when absent or longer than ``maxNameBytes``: the committer's
    /// word, but not an unbounded string to show and store).
    public var groupName: String? {
        guard let name = ((try? GroupMutableMetadata(extensions: state.context.extensions)) ?? nil)?.attributes[Self.nameAttribute],
              !name.isEmpty, name.utf8.count <= Self.maxNameBytes else { return nil }
        return name
    }

    /// When the conversation explodes (Unix seconds), if it does.
    public var explodeAt: Int64? { metadata?.expiresAtUnix }

    /// The GroupContext extensions of a new conversation: its name and Convos metadata (a fresh invite tag, the
    /// creator's profile, the explosion time) in XMTP's `0xff00` extension.
    public static func initialExtensions(name: String, creator: FeedID, creatorName: String?, explodeAt: Int64?) throws(GroupError) -> [Extension] {
        do {
            let metadata = try ConversationMetadata(
                tag: ConversationTag.random(), profiles: [MemberProfile(feedID: creator, name: creatorName)], expiresAtUnix: explodeAt
            )
            var container = GroupMutableMetadata()
            container.attributes[nameAttribute] = name
            container.appData = metadata.encodedAppData()
            return [try container.groupContextExtension()]
        } catch {
            throw .metadata(error)
        }
    }

    /// Commits new conversation metadata (committer only): `change` gets the current record and returns the next.
    /// Nil when nothing changes.
    public mutating func commitMetadata(
        _ change: (ConversationMetadata) throws(ConversationMetadataError) -> ConversationMetadata
    ) throws(GroupError) -> GroupHandshake? {
        let committer = try policy.committer
        guard committer == ownFeed else { throw .committerOnly(committer: committer) }
        guard let current = metadata else { throw .noMetadata }
        let extensions: [Extension]
        do {
            let next = try current.replaced(by: try change(current))
            guard next != current else { return nil }
            extensions = try next.placed(in: state.context.extensions)
        } catch {
            throw .metadata(error)
        }
        return try commitExtensions(extensions)
    }
}
