import KithIdentity
import KithMLS

/// Membership changes. Commits are the committer's; every other member proposes (docs/GROUPS.md, "One history").
extension GroupMembership {
    /// Commits adding `keyPackages` (already checked with ``GroupKeyPackage/check(_:owner:)``) and removing `removed`,
    /// together with every pending proposal. Committer only.
    public mutating func commit(adding keyPackages: [KeyPackage] = [], removing removed: [FeedID] = []) throws(GroupError) -> GroupHandshake {
        try requireCommitter()
        let current = members
        var joiners: [FeedID] = []
        var references: [FeedID: [UInt8]] = [:]
        for keyPackage in keyPackages {
            let feed = try GroupCredential.feed(of: keyPackage.leafNode.credential)
            // A member is added again only in the commit that removes its old leaf (re-adding one whose state was lost).
            guard !current.contains(where: { $0.feed == feed }) || removed.contains(feed), !joiners.contains(feed) else {
                throw .alreadyMember(feed)
            }
            joiners.append(feed)
            references[feed] = try GroupKeyPackage.reference(keyPackage)
        }
        var leaves: [LeafIndex] = []
        for feed in removed {
            let matching = current.filter { $0.feed == feed }
            guard !matching.isEmpty else { throw .unknownMember(feed) }
            guard feed != ownFeed else { throw .forbiddenProposal("the committer hands the role over before leaving") }
            leaves += matching.map { LeafIndex($0.leaf) }
        }
        return try commitNow(proposals: leaves.map { .remove($0) } + keyPackages.map { .add($0) }, joiners: joiners, references: references)
    }

    /// The committer's commit of the pending proposals (updates and departures members asked for), with a fresh path.
    /// Nil when nothing is pending.
    public mutating func commitPendingProposals() throws(GroupError) -> GroupHandshake? {
        guard isCommitter, !state.pendingProposals.isEmpty else { return nil }
        return try commitNow(proposals: [], joiners: [])
    }

    /// Refreshes this member's keys: the committer commits with a new path at once; anyone else proposes an Update
    /// that the committer's next commit applies (re-proposed after each epoch until it is).
    public mutating func updateKeys() throws(GroupError) -> GroupHandshake {
        if isCommitter { return try commitNow(proposals: [], joiners: []) }
        intents.update = true
        intents.leafKeyWhenAsked = state.tree.leaf(state.ownLeaf)?.encryptionKey ?? []
        return try proposeUpdateNow()
    }

    /// Asks to leave: a proposal to remove this member's own leaf, re-proposed until the committer commits it.
    /// The committer cannot leave before handing the role over.
    public mutating func leave() throws(GroupError) -> GroupHandshake {
        if isCommitter { throw .forbiddenProposal("the committer hands the role over before leaving (kith group handover)") }
        intents.leave = true
        return try proposeLeaveNow()
    }

    /// The proposals to send again after a new epoch made the earlier ones stale (an MLS proposal is valid in its
    /// epoch only). Empty when nothing is pending.
    public mutating func reproposeIntents() throws(GroupError) -> [GroupHandshake] {
        guard !isCommitter else { return [] }
        var sent: [GroupHandshake] = []
        if intents.leave { sent.append(try proposeLeaveNow()) } else if intents.update { sent.append(try proposeUpdateNow()) }
        return sent
    }

    // MARK: Internals

    private func requireCommitter() throws(GroupError) {
        let committer = try policy.committer
        guard committer == ownFeed else { throw .committerOnly(committer: committer) }
    }

    /// Commits `proposals` by value (with the pending ones when `includePending` is true) and a fresh path.
    mutating func commitNow(
        proposals: [Proposal], includePending: Bool = true, joiners: [FeedID], references: [FeedID: [UInt8]] = [:]
    ) throws(GroupError) -> GroupHandshake {
        let keyPackages = proposals.compactMap { if case .add(let keyPackage) = $0 { keyPackage } else { nil } }
        let before = memberFeeds
        // The new tree is about today's plus the joiners' leaves: above the limit, the Welcome leaves it out and the
        // joiners get it apart (the Welcome's size is checked exactly where it is written).
        let treeInWelcome = keyPackages.isEmpty
            || state.tree.tlsEncoded.count + keyPackages.reduce(0) { $0 + $1.leafNode.tlsEncoded.count } <= inBandTreeLimit
        let pending: PendingCommit
        do {
            var work = state
            pending = try work.commit(
                proposals: proposals, includePending: includePending, includePath: true, wireFormat: .privateMessage,
                ratchetTreeInWelcome: treeInWelcome
            )
        } catch {
            throw .mls("\(error)")
        }
        let outOfBandTree = treeInWelcome || pending.welcome == nil ? nil : pending.newState.tree.tlsEncoded
        state = pending.newState
        let after = memberFeeds
        let change = GroupEpochChange(
            epoch: state.epoch, committer: ownFeed, added: after.subtracting(before).sorted(), removed: before.subtracting(after).sorted()
        )
        return GroupHandshake(
            message: pending.message, kind: change.kind, welcome: pending.welcome, joiners: joiners, joinerReferences: references, isCommit: true,
            ratchetTree: outOfBandTree
        )
    }

    private mutating func proposeUpdateNow() throws(GroupError) -> GroupHandshake {
        do {
            let message = try state.proposeUpdate(wireFormat: .privateMessage)
            return GroupHandshake(message: message, kind: .updateKey, welcome: nil, joiners: [], isCommit: false)
        } catch {
            throw .mls("\(error)")
        }
    }

    private mutating func proposeLeaveNow() throws(GroupError) -> GroupHandshake {
        do {
            let message = try state.propose(.remove(state.ownLeaf), wireFormat: .privateMessage)
            return GroupHandshake(message: message, kind: .removeMember, welcome: nil, joiners: [], isCommit: false)
        } catch {
            throw .mls("\(error)")
        }
    }
}

/// Handing the committer role over (docs/GROUPS.md, "One history").
extension GroupMembership {
    /// Commits a new policy naming `member` the committer (committer only). From the next epoch on only `member`
    /// commits; the former committer is then an ordinary member (and may leave).
    public mutating func handOver(to member: FeedID) throws(GroupError) -> GroupHandshake {
        let committer = try policy.committer
        guard committer == ownFeed else { throw .committerOnly(committer: committer) }
        guard member != ownFeed else { throw .forbiddenProposal("the committer already holds the role") }
        guard memberFeeds.contains(member) else { throw .unknownMember(member) }
        // The readmissions recorded stay with the policy: a warrant used once must never count again.
        var next = try policy
        next.committer = member
        var extensions = state.context.extensions.filter { $0.type != GroupPolicy.extensionType }
        extensions.insert(next.groupContextExtension, at: 0)
        return try commitExtensions(extensions)
    }

    /// Commits a GroupContextExtensions proposal of `extensions` by value, with the pending proposals and a fresh path.
    mutating func commitExtensions(_ extensions: [Extension]) throws(GroupError) -> GroupHandshake {
        var work = state
        let pending: PendingCommit
        do {
            pending = try work.commit(proposals: [.groupContextExtensions(extensions)], includePending: true, includePath: true, wireFormat: .privateMessage)
        } catch {
            throw .mls("\(error)")
        }
        state = pending.newState
        return GroupHandshake(message: pending.message, kind: .updateKey, welcome: nil, joiners: [], isCommit: true)
    }
}
