import KithIdentity
import KithMLS

/// Readmitting a committer restored from a backup through the member it named (``CommitterReadmission``;
/// docs/CONTINUITY.md section 8, "When the committer was the one restored").
extension GroupMembership {
    /// Commits the readmission `warrant` allows, as its proxy: every leaf of the committer is removed, `keyPackage`
    /// (the one the warrant names) is added, and the warrant is recorded in the group's policy; the committer keeps its
    /// role. Nothing pending is included, so the commit is exactly what every member checks
    /// (``checkCommitterReadmission(_:author:policy:state:)``). The Welcome goes to the committer.
    ///
    /// - Parameters:
    ///   - keyPackage: the committer's new KeyPackage (made for this member).
    ///   - warrant: the committer's signed warrant naming this member as proxy.
    /// - Throws: ``GroupError/committerReadmission(_:)`` when the warrant names another proxy or another group, is not
    ///   signed by the committer's identity key, is not newer than the last one used, or names another KeyPackage.
    public mutating func readmitCommitter(keyPackage: KeyPackage, warrant: CommitterReadmission) throws(GroupError) -> GroupHandshake {
        guard warrant.proxy == ownFeed else { throw .committerReadmission("the warrant names another member as proxy") }
        let proposals = try Self.committerReadmissionProposals(warrant, keyPackage: keyPackage, policy: policy, state: state)
        return try commitNow(
            proposals: proposals, includePending: false, joiners: [warrant.committer],
            references: [warrant.committer: warrant.keyPackageReference])
    }

    /// The one commit a proxy may make for `warrant`, in order: a Remove of each of the committer's leaves, the Add of
    /// `keyPackage`, and the GroupContextExtensions that record the warrant in the policy (every other extension kept).
    static func committerReadmissionProposals(
        _ warrant: CommitterReadmission, keyPackage: KeyPackage, policy: GroupPolicy, state: GroupState
    ) throws(GroupError) -> [Proposal] {
        guard warrant.groupID.rawBytes == state.context.groupID else { throw .committerReadmission("the warrant is for another group") }
        guard warrant.committer == policy.committer else { throw .committerReadmission("the warrant's signer is not the group's committer") }
        let members = state.memberLeaves
        guard members.contains(where: { (try? GroupCredential.feed(of: $0.node.credential)) == warrant.proxy }) else {
            throw .committerReadmission("the proxy is not a member")
        }
        let committerLeaves = members.filter { (try? GroupCredential.feed(of: $0.node.credential)) == warrant.committer }
        guard !committerLeaves.isEmpty else { throw .committerReadmission("the committer has no leaf to replace") }
        guard committerLeaves.contains(where: { GroupIdentityKey.feedKey(of: $0.node).map { warrant.isSigned(by: $0.key) } == true }) else {
            throw .committerReadmission("the warrant is not signed by the identity key the committer's leaf carries")
        }
        if let last = policy.lastReadmission(of: warrant.committer), warrant.issuedAt <= last.issuedAt {
            throw .committerReadmission("the warrant is not newer than the last one used (a replay, or an older request)")
        }
        do throws(GroupError) {
            try GroupKeyPackage.check(keyPackage, owner: warrant.committer)
        } catch {
            throw .committerReadmission("its KeyPackage: \(error.description)")
        }
        guard try GroupKeyPackage.reference(keyPackage) == warrant.keyPackageReference else {
            throw .committerReadmission("the KeyPackage is not the one the warrant names")
        }
        let recorded = policy.recording(warrant).groupContextExtension
        let extensions = state.context.extensions.map { $0.type == GroupPolicy.extensionType ? recorded : $0 }
        return committerLeaves.map { .remove($0.leaf) } + [.add(keyPackage), .groupContextExtensions(extensions)]
    }

    /// The rule every member applies to a commit whose author is not the committer: it must be exactly the commit a
    /// warrant of the committer allows its proxy (``committerReadmissionProposals(_:keyPackage:policy:state:)``),
    /// every proposal by value, the author the warrant's proxy.
    static func checkCommitterReadmission(_ commit: Commit, author: FeedID, policy: GroupPolicy, state: GroupState) throws(GroupError) {
        var proposals: [Proposal] = []
        for item in commit.proposals {
            guard case .proposal(let proposal) = item else { throw .notCommitter(committer: policy.committer) }
            proposals.append(proposal)
        }
        let extensionProposals = proposals.compactMap { if case .groupContextExtensions(let extensions) = $0 { extensions } else { nil } }
        let additions = proposals.compactMap { if case .add(let keyPackage) = $0 { keyPackage } else { nil } }
        guard extensionProposals.count == 1, additions.count == 1, let extensions = extensionProposals.first, let keyPackage = additions.first,
              let next = try? GroupPolicy(extensions: extensions), next.committer == policy.committer,
              let warrant = next.lastReadmission(of: policy.committer), warrant != policy.lastReadmission(of: policy.committer) else {
            throw .notCommitter(committer: policy.committer)
        }
        guard warrant.proxy == author else { throw .committerReadmission("the warrant names another member as proxy") }
        let expected = try committerReadmissionProposals(warrant, keyPackage: keyPackage, policy: policy, state: state)
        guard expected == proposals else { throw .committerReadmission("the commit does more than readmit the committer") }
    }

    /// True when this identity, the group's committer, may join from a Welcome `author` sent: `author` is the proxy of
    /// the last readmission the policy recorded for this identity, and `keyPackage` is the one that warrant names.
    func isWarrantedReadmission(author: FeedID, keyPackage: KeyPackage) -> Bool {
        guard let policy = try? policy, policy.committer == ownFeed, let warrant = policy.lastReadmission(of: ownFeed),
              let reference = try? GroupKeyPackage.reference(keyPackage) else { return false }
        return warrant.proxy == author && warrant.keyPackageReference == reference
    }
}
