import KithIdentity
import KithMLS

extension GroupMembership {
    /// Processes one message of the current epoch (or an application message of a retained past epoch) that `author`'s
    /// feed carries.
    ///
    /// Rules on top of MLS (docs/GROUPS.md): the MLS sender must be `author`; only the committer commits; a
    /// non-committer may propose only its own Update or its own removal. On any error `self` is unchanged.
    public mutating func receive(_ wire: GroupWireMessage, from author: FeedID) throws(GroupError) -> GroupReceipt {
        let policy = try policy
        let committer = policy.committer
        let before = state
        let pending = state.pendingProposals.map { ($0.sender, $0.proposal.type) }
        var work = state
        var rejection: GroupError?
        let result: ReceivedMessage
        do {
            result = try work.handle(wire.message) { sender, body, credential in
                do throws(GroupError) {
                    try Self.authorize(sender: sender, body: body, credential: credential, author: author, policy: policy, state: before)
                    // One pending proposal of each kind per member and epoch: a flood cannot grow the committer's next
                    // commit past what one feed entry holds.
                    if case .proposal(let proposal) = body, author != committer, pending.contains(where: { $0 == sender && $1 == proposal.type }) {
                        throw GroupError.forbiddenProposal("a member has one pending \(proposal.type.rawValue) proposal per epoch")
                    }
                } catch {
                    rejection = error
                    throw error
                }
            }
        } catch MLSGroupError.unknownProposalReference {
            throw .missingProposal
        } catch {
            throw rejection ?? .mls("\(error)")
        }
        switch result {
        case .application(let data, _):
            state = work
            return .content(data, sender: author)
        case .proposal:
            state = work
            return .proposal(from: author)
        case .newEpoch(let epoch):
            // The member lists before and after, from the tree (only a commit changes them).
            let before = memberFeeds
            state = work
            let after = memberFeeds
            refreshIntents()
            return .newEpoch(GroupEpochChange(
                epoch: epoch, committer: author, added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted()
            ))
        case .removedFromGroup:
            return .removed(by: author)
        }
    }

    /// The Kith rules for one authenticated message, checked against the group as it was before it (`state`).
    static func authorize(
        sender: Sender, body: FramedContentBody, credential: Credential?, author: FeedID, policy: GroupPolicy, state: GroupState
    ) throws(GroupError) {
        let committer = policy.committer
        guard case .member(let leaf) = sender, let credential else {
            throw .forbiddenProposal("only members send group messages")
        }
        guard try GroupCredential.feed(of: credential) == author else { throw .senderMismatch(author: author) }
        switch body {
        case .application:
            return
        case .commit(let commit):
            // Anyone else commits only the readmission of a restored committer that the committer warranted.
            guard author == committer else { return try checkCommitterReadmission(commit, author: author, policy: policy, state: state) }
            for item in commit.proposals {
                if case .proposal(.add(let keyPackage)) = item { _ = try GroupCredential.feed(of: keyPackage.leafNode.credential) }
            }
        case .proposal(let proposal):
            if author == committer {
                if case .add(let keyPackage) = proposal { _ = try GroupCredential.feed(of: keyPackage.leafNode.credential) }
                return
            }
            switch proposal {
            case .update: return
            case .remove(let removed) where removed == leaf: return
            case .remove: throw .forbiddenProposal("only the committer removes other members")
            case .add: throw .forbiddenProposal("only the committer adds members")
            default: throw .forbiddenProposal("a member may propose only its own update or departure")
            }
        }
    }

    /// Drops intents that the new epoch satisfied.
    mutating func refreshIntents() {
        if intents.update, let leaf = state.tree.leaf(state.ownLeaf), leaf.encryptionKey != intents.leafKeyWhenAsked {
            intents.update = false
            intents.leafKeyWhenAsked = []
        }
    }
}
