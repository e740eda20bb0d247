/// The proposals of a commit, resolved and grouped by type in application order (RFC 9420 §12.3).
struct ResolvedProposals: Sendable {
    var groupContextExtensions: [Extension]?
    var updates: [(leaf: LeafIndex, node: LeafNode)] = []
    var removes: [LeafIndex] = []
    var adds: [KeyPackage] = []
    var psks: [PreSharedKeyID] = []
    var reinit: ReInit?
    var externalInit: [UInt8]?
    var count = 0

    /// True when the commit must carry an UpdatePath (any proposal other than Add, PSK or ReInit, or none at all).
    var pathRequired: Bool {
        count == 0 || groupContextExtensions != nil || !updates.isEmpty || !removes.isEmpty || externalInit != nil
    }

    /// Throws unless a ReInit, when present, is the only proposal (RFC 9420 §12.2).
    func checkReInitAlone() throws {
        if reinit != nil && count != 1 { throw MLSGroupError.invalidProposalList("ReInit must be the only proposal of its commit") }
    }

    /// Sorts one proposal into its group, rejecting invalid combinations (RFC 9420 §12.2).
    mutating func add(_ proposal: Proposal, sender: Sender, committer: Sender) throws {
        count += 1
        switch proposal {
        case .groupContextExtensions(let extensions):
            guard groupContextExtensions == nil else { throw MLSGroupError.invalidProposalList("more than one GroupContextExtensions") }
            groupContextExtensions = extensions
        case .update(let leaf):
            guard case .member(let index) = sender else { throw MLSGroupError.invalidProposalList("Update from a non-member") }
            guard sender != committer else { throw MLSGroupError.invalidProposalList("committer included its own Update") }
            guard !updates.contains(where: { $0.leaf == index }) else { throw MLSGroupError.invalidProposalList("two Updates for one leaf") }
            updates.append((index, leaf))
        case .remove(let leaf):
            guard !removes.contains(leaf) else { throw MLSGroupError.invalidProposalList("two Removes for one leaf") }
            if case .member(let committerLeaf) = committer, committerLeaf == leaf {
                throw MLSGroupError.invalidProposalList("committer removes itself")
            }
            removes.append(leaf)
        case .add(let keyPackage):
            adds.append(keyPackage)
        case .preSharedKey(let id):
            if case .resumption(let usage, _, _) = id.kind, usage != .application {
                throw MLSGroupError.invalidProposalList("PreSharedKey proposal with resumption usage \(usage)")
            }
            guard !psks.contains(id) else { throw MLSGroupError.invalidProposalList("duplicate PSK") }
            psks.append(id)
        case .reinit(let body):
            guard reinit == nil else { throw MLSGroupError.invalidProposalList("more than one ReInit") }
            reinit = body
        case .externalInit(let kemOutput):
            guard externalInit == nil else { throw MLSGroupError.invalidProposalList("more than one ExternalInit") }
            externalInit = kemOutput
        }
    }
}
