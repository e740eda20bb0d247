import KithFeed

/// One group as this store keeps it: the opaque serialized member state (sealed at rest) and what lists and logs show.
public struct GroupRecord: Sendable, Equatable {
    /// Where the membership stands.
    public enum Status: String, Sendable {
        /// A member.
        case active
        /// A commit removed this identity.
        case removed
        /// This identity left.
        case left
        /// The conversation exploded: state, keys and decrypted messages are gone.
        case exploded
    }

    /// base64url of the 32-byte group id.
    public var groupID: String
    /// The local name of the group.
    public var name: String?
    /// The current epoch.
    public var epoch: UInt64
    /// The serialized member state (plaintext here; sealed in SQLite). Empty once the group is no longer active.
    public var state: [UInt8]
    /// The state's message-key ratchets when they are stored apart from ``state`` (sealed in SQLite, table
    /// `mls_group_ratchets`); empty when ``state`` is whole (written before they were split, or no longer active).
    public var ratchets: [UInt8] = []
    /// Where the membership stands.
    public var status: Status
    /// The feed id of the committer.
    public var committer: String?
    /// When the conversation explodes (Unix seconds), if it does.
    public var explodeAt: Int64?
    /// When this device created or joined the group (Unix milliseconds).
    public var createdAt: Int64
    /// Grows with every save of the record or of its ratchets alone (0 before the first).
    public var version: Int64 = 0

    /// Creates a record.
    public init(groupID: String, name: String?, epoch: UInt64, state: [UInt8], status: Status, committer: String?, explodeAt: Int64?, createdAt: Int64) {
        self.groupID = groupID
        self.name = name
        self.epoch = epoch
        self.state = state
        self.status = status
        self.committer = committer
        self.explodeAt = explodeAt
        self.createdAt = createdAt
    }
}

/// A message of a group's audience waiting to be processed.
public struct GroupInboxEntry: Sendable {
    /// The message.
    public let messageID: String
    /// The feed that carries it.
    public let feedID: String
    /// Its sequence in that feed.
    public let sequence: UInt32
    /// The envelope's `type`.
    public let type: String
    /// The decoded `content_enc` bytes (an MLS message).
    public let contentBytes: [UInt8]
    /// The envelope.
    public let envelope: Envelope
}
