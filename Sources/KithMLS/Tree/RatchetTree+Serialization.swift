/// The stored form of a ratchet tree, part of a serialized ``GroupState``: every node slot, trailing blanks included,
/// so the tree comes back with exactly the same size (`optional<Node> nodes<V>` of `2 * leaf_count - 1` slots).
extension RatchetTree {
    /// Writes every node slot.
    func encodeState(to writer: inout TLSWriter) throws {
        try writer.writeCheckedVector { inner in
            for node in nodes { inner.writeOptional(node) }
        }
    }

    /// Reads a tree written by ``encodeState(to:)``, rejecting a slot count that is not a full tree.
    init(stateFrom reader: inout TLSReader) throws {
        let slots = try reader.readVector { try $0.readOptional(of: Node.self) }
        try self.init(nodes: slots)
        guard nodes.count == slots.count else {
            throw MLSCodecError.invalidValue(field: "ratchet tree", reason: "\(slots.count) node slots do not form a full tree")
        }
    }
}
