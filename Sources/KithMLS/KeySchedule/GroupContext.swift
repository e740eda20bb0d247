/// The shared state every member agrees on in an epoch (RFC 9420 §8.1).
public struct GroupContext: Hashable, Sendable, TLSCodable {
    /// The protocol version.
    public var version: ProtocolVersion
    /// The group's cipher suite.
    public var cipherSuite: CipherSuiteID
    /// The group identifier.
    public var groupID: [UInt8]
    /// The epoch number (uint64; vectors use large values).
    public var epoch: UInt64
    /// The tree hash of the ratchet tree's root.
    public var treeHash: [UInt8]
    /// The confirmed transcript hash.
    public var confirmedTranscriptHash: [UInt8]
    /// GroupContext extensions.
    public var extensions: [Extension]

    /// Creates a group context.
    public init(version: ProtocolVersion = .mls10, cipherSuite: CipherSuiteID, groupID: [UInt8], epoch: UInt64,
                treeHash: [UInt8], confirmedTranscriptHash: [UInt8], extensions: [Extension]) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.groupID = groupID
        self.epoch = epoch
        self.treeHash = treeHash
        self.confirmedTranscriptHash = confirmedTranscriptHash
        self.extensions = extensions
    }

    /// Encodes the context.
    public func encode(to writer: inout TLSWriter) {
        version.encode(to: &writer)
        cipherSuite.encode(to: &writer)
        writer.writeOpaque(groupID)
        writer.writeUInt64(epoch)
        writer.writeOpaque(treeHash)
        writer.writeOpaque(confirmedTranscriptHash)
        writer.writeVector(extensions)
    }

    /// Decodes the context.
    public init(from reader: inout TLSReader) throws {
        version = try ProtocolVersion(from: &reader)
        cipherSuite = try CipherSuiteID(from: &reader)
        groupID = try reader.readOpaque()
        epoch = try reader.readUInt64()
        treeHash = try reader.readOpaque()
        confirmedTranscriptHash = try reader.readOpaque()
        extensions = try reader.readVector(of: Extension.self)
    }
}
