/// The encrypted identification of a PrivateMessage's sender (RFC 9420 §6.3.2).
public struct SenderData: Hashable, Sendable, TLSCodable {
    /// The sender's leaf.
    public var leafIndex: LeafIndex
    /// The ratchet generation of the content key.
    public var generation: UInt32
    /// Four random bytes XORed into the content nonce.
    public var reuseGuard: [UInt8]

    /// Creates sender data.
    public init(leafIndex: LeafIndex, generation: UInt32, reuseGuard: [UInt8]) {
        self.leafIndex = leafIndex
        self.generation = generation
        self.reuseGuard = reuseGuard
    }

    /// Encodes `uint32 leaf_index; uint32 generation; opaque reuse_guard[4]`.
    public func encode(to writer: inout TLSWriter) {
        writer.writeUInt32(leafIndex.value)
        writer.writeUInt32(generation)
        writer.writeBytes(reuseGuard.prefix(MLSLimits.reuseGuardLength))
    }

    /// Decodes sender data.
    public init(from reader: inout TLSReader) throws {
        leafIndex = LeafIndex(try reader.readUInt32())
        generation = try reader.readUInt32()
        reuseGuard = try reader.readBytes(MLSLimits.reuseGuardLength)
    }
}
