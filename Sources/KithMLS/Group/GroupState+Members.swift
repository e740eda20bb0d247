/// The application's read-only view of the group: its members and the GroupContext extensions of the current epoch.
extension GroupState {
    /// Every member of the current epoch, by ascending leaf index.
    public var members: [GroupMember] {
        var result: [GroupMember] = []
        tree.forEachMember { leaf, node in result.append(GroupMember(leaf: leaf, credential: node.credential, signatureKey: node.signatureKey)) }
        return result
    }

    /// The member at `leaf`, nil when the leaf is blank or outside the tree.
    public func member(at leaf: LeafIndex) -> GroupMember? {
        tree.leaf(leaf).map { GroupMember(leaf: leaf, credential: $0.credential, signatureKey: $0.signatureKey) }
    }

    /// The GroupContext extensions of the current epoch (the same as `context.extensions`).
    public var groupContextExtensions: [Extension] { context.extensions }
}
