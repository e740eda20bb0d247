/// The stored form of a member's tree private keys, part of a serialized ``GroupState``:
///
/// ```
/// uint32 leaf;
/// struct { uint32 node; opaque private_key<V>; opaque public_key<V>; } key_pairs<V>;   // ascending node
/// ```
extension TreePrivateKeys {
    /// Writes the leaf index and every key pair.
    func encodeState(to writer: inout TLSWriter) throws {
        for pair in keyPairs.values where max(pair.privateKey.count, pair.publicKey.count) > MLSLimits.maxStoredKeyLength {
            throw MLSCodecError.invalidValue(field: "tree private keys", reason: "a key exceeds \(MLSLimits.maxStoredKeyLength) bytes")
        }
        writer.writeUInt32(leaf.value)
        writer.writeVector { inner in
            for (node, pair) in keyPairs.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(node.value)
                inner.writeOpaque(pair.privateKey)
                inner.writeOpaque(pair.publicKey)
            }
        }
    }

    /// Reads keys written by ``encodeState(to:)`` for `tree`: the leaf must be occupied and its key pair present and
    /// matching the leaf's encryption key, and every node must lie inside the tree.
    init(stateFrom reader: inout TLSReader, tree: RatchetTree) throws {
        let leaf = LeafIndex(try reader.readUInt32())
        let limit = MLSLimits.maxStoredKeyLength
        let pairs = try reader.readVector(atMost: Int(tree.math.nodeCount), field: "tree private keys") { sub in
            let node = NodeIndex(try sub.readUInt32())
            guard tree.math.contains(node) else { throw MLSCodecError.invalidValue(field: "tree private keys", reason: "\(node) lies outside the tree") }
            return (node, KeyPair(privateKey: try sub.readOpaque(atMost: limit, field: "HPKE private key"),
                                  publicKey: try sub.readOpaque(atMost: limit, field: "HPKE public key")))
        }
        try CanonicalOrder.checkAscending(pairs.map(\.0), field: "tree private keys")
        guard let leafNode = tree.leaf(leaf), let own = pairs.first(where: { $0.0 == leaf.nodeIndex })?.1,
              own.publicKey == leafNode.encryptionKey else {
            throw MLSCodecError.invalidValue(field: "tree private keys", reason: "no key pair matching the member's own \(leaf)")
        }
        self.init(leaf: leaf, leafKeyPair: own)
        for (node, pair) in pairs where node != leaf.nodeIndex { setKeyPair(pair, for: node) }
    }
}
