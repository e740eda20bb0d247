/// Identifies a pre-shared key injected into the key schedule (RFC 9420 §8.4).
public struct PreSharedKeyID: Hashable, Sendable, TLSCodable {
    /// Which kind of PSK this is.
    public enum Kind: Hashable, Sendable {
        /// An externally provisioned PSK named by `id`.
        case external(id: [UInt8])
        /// The resumption secret of an epoch of a group.
        case resumption(usage: ResumptionPSKUsage, groupID: [UInt8], epoch: UInt64)
    }

    /// The PSK kind and its identifier.
    public var kind: Kind
    /// A fresh random nonce of `Nh` bytes.
    public var nonce: [UInt8]

    /// Creates a PSK identifier.
    public init(kind: Kind, nonce: [UInt8]) {
        self.kind = kind
        self.nonce = nonce
    }

    /// Encodes the identifier.
    public func encode(to writer: inout TLSWriter) {
        switch kind {
        case .external(let id):
            writer.writeUInt8(1)
            writer.writeOpaque(id)
        case .resumption(let usage, let groupID, let epoch):
            writer.writeUInt8(2)
            writer.writeUInt8(usage.rawValue)
            writer.writeOpaque(groupID)
            writer.writeUInt64(epoch)
        }
        writer.writeOpaque(nonce)
    }

    /// Decodes the identifier.
    public init(from reader: inout TLSReader) throws {
        let type = try reader.readUInt8()
        switch type {
        case 1:
            kind = .external(id: try reader.readOpaque())
        case 2:
            let rawUsage = try reader.readUInt8()
            guard let usage = ResumptionPSKUsage(rawValue: rawUsage) else {
                throw MLSCodecError.unknownValue(field: "ResumptionPSKUsage", value: UInt64(rawUsage))
            }
            kind = .resumption(usage: usage, groupID: try reader.readOpaque(), epoch: try reader.readUInt64())
        default:
            throw MLSCodecError.unknownValue(field: "PSKType", value: UInt64(type))
        }
        nonce = try reader.readOpaque()
    }
}

/// Why a resumption PSK is used (RFC 9420 §8.6).
public enum ResumptionPSKUsage: UInt8, Hashable, Sendable {
    /// Application-defined use.
    case application = 1
    /// Re-initializing a group.
    case reinit = 2
    /// Branching a subgroup.
    case branch = 3
}
