/// A non-blank node of the ratchet tree (RFC 9420 §12.4.3.3).
public enum Node: Hashable, Sendable, TLSCodable {
    /// A member leaf.
    case leaf(LeafNode)
    /// An interior node.
    case parent(ParentNode)

    /// The node's HPKE public key.
    public var encryptionKey: [UInt8] {
        switch self {
        case .leaf(let leaf): leaf.encryptionKey
        case .parent(let parent): parent.encryptionKey
        }
    }

    /// Encodes `NodeType node_type` and the node.
    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .leaf(let leaf):
            writer.writeUInt8(1)
            leaf.encode(to: &writer)
        case .parent(let parent):
            writer.writeUInt8(2)
            parent.encode(to: &writer)
        }
    }

    /// Decodes a node.
    public init(from reader: inout TLSReader) throws {
        let type = try reader.readUInt8()
        switch type {
        case 1: self = .leaf(try LeafNode(from: &reader))
        case 2: self = .parent(try ParentNode(from: &reader))
        default: throw MLSCodecError.unknownValue(field: "NodeType", value: UInt64(type))
        }
    }
}
