/// The stored form of a secret tree, part of a serialized ``GroupState``: the secrets not expanded yet and the ratchets
/// of the leaves expanded so far, with their current generations and retained (unconsumed) skipped keys.
///
/// ```
/// struct {
///     uint32 leaf_count;
///     struct { uint32 node; opaque secret<V>; } node_secrets<V>;      // ascending node
///     struct { uint32 leaf; HashRatchetState ratchet; } handshake<V>; // ascending leaf
///     struct { uint32 leaf; HashRatchetState ratchet; } application<V>;
/// } SecretTreeState;
/// ```
extension SecretTree {
    /// Writes the tree's shape, unexpanded node secrets and leaf ratchets.
    func encodeState(to writer: inout TLSWriter) {
        writer.writeUInt32(math.leafCount)
        writer.writeVector { inner in
            for (node, secret) in nodeSecrets.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(node)
                inner.writeOpaque(secret)
            }
        }
        for ratchets in [handshake, application] {
            writer.writeVector { inner in
                for (leaf, ratchet) in ratchets.sorted(by: { $0.key < $1.key }) {
                    inner.writeUInt32(leaf)
                    ratchet.encodeState(to: &inner)
                }
            }
        }
    }

    /// Reads a tree written by ``encodeState(to:)``, checking the shape, every index and every secret size.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        let leafCount = try reader.readUInt32()
        guard let math = TreeMath(leafCount: leafCount) else {
            throw MLSCodecError.invalidValue(field: "secret tree leaf count", reason: "\(leafCount) is not a power of two up to \(MLSLimits.maxLeafCount)")
        }
        let secrets = try reader.readVector(atMost: Int(math.nodeCount), field: "secret tree node secrets") { sub in
            let node = try sub.readUInt32()
            guard node < math.nodeCount else { throw MLSCodecError.invalidValue(field: "secret tree node", reason: "\(node) lies outside the tree") }
            return (node, try sub.readOpaque(exactly: suite.secretSize, field: "secret tree node secret"))
        }
        try CanonicalOrder.checkAscending(secrets.map(\.0), field: "secret tree node secrets")
        var ratchets: [[UInt32: HashRatchet]] = []
        for field in ["handshake ratchets", "application ratchets"] {
            let entries = try reader.readVector(atMost: Int(math.leafCount), field: field) { sub in
                let leaf = try sub.readUInt32()
                guard leaf < math.leafCount else { throw MLSCodecError.invalidValue(field: field, reason: "leaf \(leaf) lies outside the tree") }
                return (leaf, try HashRatchet(stateFrom: &sub, suite: suite))
            }
            try CanonicalOrder.checkAscending(entries.map(\.0), field: field)
            ratchets.append(Dictionary(uniqueKeysWithValues: entries))
        }
        self.init(suite: suite, math: math, nodeSecrets: Dictionary(uniqueKeysWithValues: secrets), handshake: ratchets[0], application: ratchets[1])
    }
}
