/// A member's private view of the ratchet tree: its leaf index and the HPKE private keys it holds (RFC 9420 §7.3).
public struct TreePrivateKeys: Sendable, Hashable {
    /// The member's own leaf.
    public var leaf: LeafIndex
    /// HPKE key pairs by node index (the leaf's and any known parent nodes').
    public private(set) var keyPairs: [NodeIndex: KeyPair]

    /// Creates the view with the leaf's key pair.
    public init(leaf: LeafIndex, leafKeyPair: KeyPair) {
        self.leaf = leaf
        self.keyPairs = [leaf.nodeIndex: leafKeyPair]
    }

    /// Creates the view with the leaf's private key, deriving its public key.
    public init(leaf: LeafIndex, leafPrivateKey: [UInt8], suite: CipherSuite) throws {
        self.init(leaf: leaf, leafKeyPair: KeyPair(privateKey: leafPrivateKey, publicKey: try suite.kem.publicKey(privateKey: leafPrivateKey)))
    }

    /// The private key held for `node`, if any.
    public func privateKey(for node: NodeIndex) -> [UInt8]? { keyPairs[node]?.privateKey }

    /// Records a key pair for `node`.
    public mutating func setKeyPair(_ keyPair: KeyPair, for node: NodeIndex) { keyPairs[node] = keyPair }

    /// Records the private key derived from `pathSecret` for `node`, checking it against `expectedPublicKey` when given.
    public mutating func setPathSecret(_ pathSecret: [UInt8], for node: NodeIndex, suite: CipherSuite, expectedPublicKey: [UInt8]? = nil) throws {
        let keyPair = try suite.deriveKeyPair(secret: suite.deriveSecret(secret: pathSecret, label: "node"))
        if let expectedPublicKey, keyPair.publicKey != expectedPublicKey { throw MLSTreeKEMError.publicKeyMismatch(node) }
        keyPairs[node] = keyPair
    }

    /// Forgets keys of nodes that are blank in `tree` or whose public key no longer matches.
    public mutating func prune(to tree: RatchetTree) {
        keyPairs = keyPairs.filter { node, pair in tree[node: node]?.encryptionKey == pair.publicKey }
    }
}
