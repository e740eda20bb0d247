/// The stored form of a retained past epoch, part of a serialized ``GroupState``:
///
/// ```
/// struct {
///     GroupContext context;
///     SecretTreeState secret_tree;
///     struct { uint32 leaf; opaque signature_key<V>; Credential credential; } senders<V>;   // ascending leaf
///     opaque sender_data_secret<V>;                                                         // Nh bytes
/// } PastEpochState;
/// ```
extension PastEpoch {
    /// Writes the epoch's context, remaining message keys, senders and sender-data secret.
    func encodeState(to writer: inout TLSWriter) throws {
        for sender in senders.values where sender.signatureKey.count > MLSLimits.maxStoredKeyLength {
            throw MLSCodecError.invalidValue(field: "past epoch senders", reason: "a signature key exceeds \(MLSLimits.maxStoredKeyLength) bytes")
        }
        context.encode(to: &writer)
        secretTree.encodeState(to: &writer)
        try writer.writeCheckedVector { inner in
            for (leaf, sender) in senders.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(leaf)
                inner.writeOpaque(sender.signatureKey)
                sender.credential.encode(to: &inner)
            }
        }
        writer.writeOpaque(senderDataSecret)
    }

    /// Reads an epoch written by ``encodeState(to:)``; every sender's leaf must lie inside that epoch's tree.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        let context = try GroupContext(from: &reader)
        let secretTree = try SecretTree(stateFrom: &reader, suite: suite)
        let leafCount = secretTree.math.leafCount
        let senders = try reader.readVector(atMost: Int(leafCount), field: "past epoch senders") { sub in
            let leaf = try sub.readUInt32()
            guard leaf < leafCount else { throw MLSCodecError.invalidValue(field: "past epoch senders", reason: "leaf \(leaf) lies outside the tree") }
            return (leaf, PastSender(signatureKey: try sub.readOpaque(atMost: MLSLimits.maxStoredKeyLength, field: "past sender signature key"),
                                     credential: try Credential(from: &sub)))
        }
        try CanonicalOrder.checkAscending(senders.map(\.0), field: "past epoch senders")
        self.init(context: context, senders: Dictionary(uniqueKeysWithValues: senders), secretTree: secretTree,
                  senderDataSecret: try reader.readOpaque(exactly: suite.secretSize, field: "past sender_data_secret"))
    }
}
