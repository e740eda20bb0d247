/// One node of an UpdatePath: a new public key and the path secret encrypted to the copath resolution (RFC 9420 §7.6).
public struct UpdatePathNode: Hashable, Sendable, TLSCodable {
    /// The node's new HPKE public key.
    public var encryptionKey: [UInt8]
    /// The path secret encrypted to each node of the resolution of the copath child.
    public var encryptedPathSecret: [HPKECiphertext]

    /// Creates a path node.
    public init(encryptionKey: [UInt8], encryptedPathSecret: [HPKECiphertext]) {
        self.encryptionKey = encryptionKey
        self.encryptedPathSecret = encryptedPathSecret
    }

    /// Encodes the node.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(encryptionKey)
        writer.writeVector(encryptedPathSecret)
    }

    /// Decodes the node.
    public init(from reader: inout TLSReader) throws {
        encryptionKey = try reader.readOpaque()
        encryptedPathSecret = try reader.readVector(of: HPKECiphertext.self)
    }
}

/// The committer's new leaf and the encrypted path secrets of its filtered direct path (RFC 9420 §7.6, §12.4).
public struct UpdatePath: Hashable, Sendable, TLSCodable {
    /// The committer's new leaf (source `commit`).
    public var leafNode: LeafNode
    /// One entry per node of the filtered direct path, bottom up.
    public var nodes: [UpdatePathNode]

    /// Creates an update path.
    public init(leafNode: LeafNode, nodes: [UpdatePathNode]) {
        self.leafNode = leafNode
        self.nodes = nodes
    }

    /// Encodes the path.
    public func encode(to writer: inout TLSWriter) {
        leafNode.encode(to: &writer)
        writer.writeVector(nodes)
    }

    /// Decodes the path.
    public init(from reader: inout TLSReader) throws {
        leafNode = try LeafNode(from: &reader)
        nodes = try reader.readVector(of: UpdatePathNode.self)
    }
}
