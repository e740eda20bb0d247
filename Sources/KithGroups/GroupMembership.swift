import Crypto
import KithIdentity
import KithMLS

/// This identity's membership in one group: the MLS state of its leaf and the Kith rules on top of it.
///
/// A value type, like the MLS state under it: every operation works on `self` and the caller persists the new value in
/// the same transaction as the message that caused it, or throws it away (the old value is then still right).
public struct GroupMembership: Sendable {
    /// The group.
    public let id: GroupID
    /// This identity's feed.
    public let ownFeed: FeedID
    /// The MLS state of this member.
    public internal(set) var state: GroupState
    /// Changes this member asked for and the committer has not applied yet (re-proposed after each new epoch).
    public internal(set) var intents: GroupIntents
    /// Largest ratchet tree (TLS-encoded bytes) this member's commits put in a Welcome; a larger one is handed out of
    /// band (``GroupHandshake/ratchetTree``). Not stored: ``GroupWireMessage/maxInBandTreeBytes`` unless a caller
    /// lowers it (tests).
    public var inBandTreeLimit = GroupWireMessage.maxInBandTreeBytes

    /// Wraps an MLS state.
    init(id: GroupID, ownFeed: FeedID, state: GroupState, intents: GroupIntents = GroupIntents()) {
        self.id = id
        self.ownFeed = ownFeed
        self.state = state
        self.intents = intents
    }

    /// The current epoch.
    public var epoch: UInt64 { state.epoch }

    /// The group's policy (who commits).
    public var policy: GroupPolicy {
        get throws(GroupError) { try GroupPolicy(extensions: state.context.extensions) }
    }

    /// True when this identity is the committer.
    public var isCommitter: Bool { (try? policy.committer) == ownFeed }

    /// The members, in leaf order.
    public var members: [GroupMember] {
        state.memberLeaves.compactMap { entry in
            (try? GroupCredential.feed(of: entry.node.credential)).map { GroupMember(feed: $0, leaf: entry.leaf.value) }
        }
    }

    /// The members' feeds with the identity keys their leaves carry (to follow their feeds).
    public var memberFeedKeys: [(feed: FeedID, key: Curve25519.Signing.PublicKey)] {
        state.memberLeaves.compactMap { GroupIdentityKey.feedKey(of: $0.node) }
    }

    /// The member feeds.
    public var memberFeeds: Set<FeedID> { Set(members.map(\.feed)) }

    // MARK: Creating and joining

    /// Creates a group whose only member (and committer) is `owner`.
    ///
    /// - Parameter extensions: further GroupContext extensions (the conversation metadata).
    public static func create(
        id: GroupID, owner: FeedID, identityKey: Curve25519.Signing.PublicKey, extensions: [Extension] = [],
        now: @escaping @Sendable () -> UInt64
    ) throws(GroupError) -> GroupMembership {
        let (keyPackage, secrets) = try GroupKeyPackage.generate(for: owner, identityKey: identityKey, now: now())
        let all = [GroupPolicy(committer: owner).groupContextExtension] + extensions.filter { $0.type != GroupPolicy.extensionType }
        do {
            let state = try GroupState(
                creating: id.rawBytes, keyPackage: keyPackage, secrets: secrets, extensions: all, configuration: GroupSuite.configuration(now: now)
            )
            return GroupMembership(id: id, ownFeed: owner, state: state)
        } catch {
            throw .mls("\(error)")
        }
    }

    /// Joins from a Welcome that `author` sent (as a direct message) for one of this identity's KeyPackages.
    ///
    /// The Welcome's signer must be `author`, and `author` must be the group's committer: nobody else can put this
    /// identity into a group. The one exception is a committer readmitted through the proxy its warrant named
    /// (``CommitterReadmission``), for the KeyPackage that warrant names.
    ///
    /// - Parameter ratchetTree: the group's TLS-encoded ratchet tree when the Welcome does not carry it (an
    ///   `mls_group_tree` blob); MLS checks it against the signed GroupInfo's tree hash.
    /// - Throws: ``GroupError/ratchetTreeMissing`` when the Welcome has no tree and none was given.
    public static func join(
        welcome: Welcome, keyPackage: KeyPackage, secrets: KeyPackageSecrets, own: FeedID, author: FeedID, ratchetTree: [UInt8]? = nil,
        now: @escaping @Sendable () -> UInt64
    ) throws(GroupError) -> GroupMembership {
        let state: GroupState
        do {
            var tree: RatchetTree?
            if let ratchetTree {
                var reader = TLSReader(ratchetTree)
                tree = try RatchetTree(from: &reader)
                try reader.expectEnd()
            }
            state = try GroupState(
                welcome: welcome, keyPackage: keyPackage, secrets: secrets, ratchetTree: tree, configuration: GroupSuite.configuration(now: now)
            )
        } catch MLSGroupError.missingRatchetTree {
            throw .ratchetTreeMissing
        } catch {
            throw .mls("\(error)")
        }
        let id = try GroupID(rawBytes: state.context.groupID)
        let membership = GroupMembership(id: id, ownFeed: own, state: state)
        let committer = try membership.policy.committer
        // The committer's own Welcome, or (for a restored committer) its proxy's under the warrant it signed.
        guard committer == author || membership.isWarrantedReadmission(author: author, keyPackage: keyPackage) else {
            throw .notCommitter(committer: committer)
        }
        guard try GroupCredential.feed(of: keyPackage.leafNode.credential) == own else { throw .invalidKeyPackage("not this identity's") }
        return membership
    }

    // MARK: Sending

    /// Encrypts application content (canonical content JSON bytes) as an MLS PrivateMessage.
    public mutating func encrypt(_ content: [UInt8]) throws(GroupError) -> MLSMessage {
        do { return try state.encryptApplication(content) } catch { throw .mls("\(error)") }
    }
}

/// The changes a member asked for that only a commit can apply.
public struct GroupIntents: Sendable, Hashable {
    /// The member asked to refresh its leaf key; satisfied when its leaf's encryption key differs from ``leafKeyWhenAsked``.
    public var update: Bool = false
    /// The member's leaf encryption key when it asked for the update.
    public var leafKeyWhenAsked: [UInt8] = []
    /// The member asked to leave; satisfied when a commit removes it.
    public var leave: Bool = false

    /// No pending intents.
    public init() {}
}
