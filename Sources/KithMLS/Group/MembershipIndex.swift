/// The keys and credential types of a tree's members, so a commit adding many members validates each new leaf in
/// constant time instead of rescanning the tree (RFC 9420 §7.3 uniqueness, §7.2 mutual credential support).
///
/// A fast filter only: when it finds a conflict, the caller runs the full per-member checks for their precise error.
struct MembershipIndex: Sendable {
    /// Key bytes hashed in one pass (an `[UInt8]` feeds the hasher byte by byte); equality compares every byte.
    private struct Key: Hashable, Sendable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    private var encryptionKeys: Set<Key> = []
    private var signatureKeys: Set<Key> = []
    /// Credential types used by some member.
    private var credentialTypesInUse: Set<CredentialType> = []
    /// Credential types every member supports; nil while the index is empty.
    private var credentialTypesSupportedByAll: Set<CredentialType>?
    /// The last credential list folded into ``credentialTypesSupportedByAll`` (members usually share one).
    private var lastSupportedList: [CredentialType]?

    /// Indexes the occupied leaves of `tree`.
    init(tree: RatchetTree) {
        encryptionKeys.reserveCapacity(Int(tree.leafCount))
        signatureKeys.reserveCapacity(Int(tree.leafCount))
        tree.forEachMember { _, leaf in insert(leaf) }
    }

    /// True when `leaf` uses no member's key and shares mutually supported credential types with every member.
    func admits(_ leaf: LeafNode) -> Bool {
        guard !encryptionKeys.contains(Key(bytes: leaf.encryptionKey)), !signatureKeys.contains(Key(bytes: leaf.signatureKey)) else { return false }
        guard credentialTypesSupportedByAll?.contains(leaf.credential.type) ?? true else { return false }
        return credentialTypesInUse.allSatisfy { leaf.capabilities.credentials.contains($0) }
    }

    /// Records a new member's leaf.
    mutating func insert(_ leaf: LeafNode) {
        encryptionKeys.insert(Key(bytes: leaf.encryptionKey))
        signatureKeys.insert(Key(bytes: leaf.signatureKey))
        credentialTypesInUse.insert(leaf.credential.type)
        let list = leaf.capabilities.credentials
        guard list != lastSupportedList else { return }
        lastSupportedList = list
        let supported = Set(list)
        credentialTypesSupportedByAll = credentialTypesSupportedByAll.map { $0.intersection(supported) } ?? supported
    }
}
