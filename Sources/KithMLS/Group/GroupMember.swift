/// One member of a group as the application sees it: where it sits in the tree and who it is.
public struct GroupMember: Sendable, Hashable {
    /// The member's leaf (the index a Remove proposal names).
    public var leaf: LeafIndex
    /// The member's credential.
    public var credential: Credential
    /// The member's signature public key.
    public var signatureKey: [UInt8]

    /// Creates a member description.
    public init(leaf: LeafIndex, credential: Credential, signatureKey: [UInt8]) {
        self.leaf = leaf
        self.credential = credential
        self.signatureKey = signatureKey
    }
}
