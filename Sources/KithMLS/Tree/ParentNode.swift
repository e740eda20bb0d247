/// An interior node of the ratchet tree (RFC 9420 §7.1).
public struct ParentNode: Hashable, Sendable, TLSCodable {
    /// The node's HPKE public key.
    public var encryptionKey: [UInt8]
    /// The parent hash binding the node to its parent.
    public var parentHash: [UInt8]
    /// Leaves added below this node since its key was last set, in increasing order.
    public var unmergedLeaves: [LeafIndex]

    /// Creates a parent node.
    public init(encryptionKey: [UInt8], parentHash: [UInt8], unmergedLeaves: [LeafIndex]) {
        self.encryptionKey = encryptionKey
        self.parentHash = parentHash
        self.unmergedLeaves = unmergedLeaves
    }

    /// Encodes the node.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeOpaque(parentHash)
        writer.writeVector { inner in for leaf in unmergedLeaves { inner.writeUInt32(leaf.value) } }
    }

    /// Decodes the node.
    public init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        parentHash = try reader.readOpaque()
        unmergedLeaves = try reader.readVector { LeafIndex(try $0.readUInt32()) }
    }
}
