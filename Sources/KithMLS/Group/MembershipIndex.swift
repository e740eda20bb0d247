/// The keys and credential types of a tree's members, so a commit adding many members validates each new leaf in
/// constant time instead of rescanning the tree (RFC 9420 §7.3 uniqueness, §7.2 mutual credential support).
///
/// A fast filter only: when it finds a conflict, the caller runs the full per-member checks for their precise error.
struct MembershipIndex: Sendable {
    private var encryptionKeys: Set<[UInt8]> = []
    private var signatureKeys: Set<[UInt8]> = []
    /// Credential types used by some member.
    private var credentialTypesInUse: Set<CredentialType> = []
    /// Credential types every member supports; nil while the index is empty.
    private var credentialTypesSupportedByAll: Set<CredentialType>?

    /// Indexes the occupied leaves of `tree`.
    init(tree: RatchetTree) {
        for index in tree.occupiedLeaves {
            if let leaf = tree.leaf(index) { insert(leaf) }
        }
    }

    /// True when `leaf` uses no member's key and shares mutually supported credential types with every member.
    func admits(_ leaf: LeafNode) -> Bool {
        guard !encryptionKeys.contains(leaf.encryptionKey), !signatureKeys.contains(leaf.signatureKey) else { return false }
        guard credentialTypesSupportedByAll?.contains(leaf.credential.type) ?? true else { return false }
        return credentialTypesInUse.isSubset(of: Set(leaf.capabilities.credentials))
    }

    /// Records a new member's leaf.
    mutating func insert(_ leaf: LeafNode) {
        encryptionKeys.insert(leaf.encryptionKey)
        signatureKeys.insert(leaf.signatureKey)
        credentialTypesInUse.insert(leaf.credential.type)
        let supported = Set(leaf.capabilities.credentials)
        credentialTypesSupportedByAll = credentialTypesSupportedByAll.map { $0.intersection(supported) } ?? supported
    }
}
