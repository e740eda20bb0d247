/// The secrets a new member receives in a Welcome (RFC 9420 §12.4.3.1).
public struct GroupSecrets: Hashable, Sendable, TLSCodable {
    /// The joiner secret of the new epoch.
    public var joinerSecret: [UInt8]
    /// The path secret of the lowest common ancestor with the committer, when the commit had a path.
    public var pathSecret: [UInt8]?
    /// The PSKs injected into the epoch.
    public var psks: [PreSharedKeyID]

    /// Creates group secrets.
    public init(joinerSecret: [UInt8], pathSecret: [UInt8]?, psks: [PreSharedKeyID]) {
        self.joinerSecret = joinerSecret
        self.pathSecret = pathSecret
        self.psks = psks
    }

    /// Encodes the secrets.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(joinerSecret)
        if let pathSecret {
            writer.writeUInt8(1)
            writer.writeOpaque(pathSecret)
        } else {
            writer.writeUInt8(0)
        }
        writer.writeVector(psks)
    }

    /// Decodes the secrets.
    public init(from reader: inout TLSReader) throws {
        joinerSecret = try reader.readOpaque()
        pathSecret = try reader.readOptional { try $0.readOpaque() }
        psks = try reader.readVector(of: PreSharedKeyID.self)
    }
}
