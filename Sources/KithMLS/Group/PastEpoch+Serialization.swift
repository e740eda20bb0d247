/// The stored form of a retained past epoch, part of a serialized ``GroupState``:
/// `struct { GroupContext context; RatchetTreeState tree; SecretTreeState secret_tree; opaque sender_data_secret<V>; }`.
extension PastEpoch {
    /// Writes the epoch's context, tree, remaining message keys and sender-data secret.
    func encodeState(to writer: inout TLSWriter) throws {
        context.encode(to: &writer)
        try tree.encodeState(to: &writer)
        secretTree.encodeState(to: &writer)
        writer.writeOpaque(senderDataSecret)
    }

    /// Reads an epoch written by ``encodeState(to:)``.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        context = try GroupContext(from: &reader)
        tree = try RatchetTree(stateFrom: &reader)
        secretTree = try SecretTree(stateFrom: &reader, suite: suite)
        senderDataSecret = try reader.readOpaque(exactly: suite.secretSize, field: "past sender_data_secret")
    }
}
