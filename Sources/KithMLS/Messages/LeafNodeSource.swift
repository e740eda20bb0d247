/// Why a leaf node was created, with the data that depends on it (RFC 9420 §7.2).
public enum LeafNodeSource: Hashable, Sendable {
    /// Published in a KeyPackage, with its validity window.
    case keyPackage(Lifetime)
    /// Sent in an Update proposal.
    case update
    /// Sent in a Commit's UpdatePath, with the parent hash binding it to the path.
    case commit(parentHash: [UInt8])

    /// The `LeafNodeSource` code point.
    public var code: UInt8 {
        switch self {
        case .keyPackage: 1
        case .update: 2
        case .commit: 3
        }
    }

    /// Encodes the code point and its payload.
    func encode(to writer: inout TLSWriter) {
        writer.writeUInt8(code)
        switch self {
        case .keyPackage(let lifetime): lifetime.encode(to: &writer)
        case .update: break
        case .commit(let parentHash): writer.writeOpaque(parentHash)
        }
    }

    /// Decodes the code point and its payload.
    init(from reader: inout TLSReader) throws {
        let code = try reader.readUInt8()
        switch code {
        case 1: self = .keyPackage(try Lifetime(from: &reader))
        case 2: self = .update
        case 3: self = .commit(parentHash: try reader.readOpaque())
        default: throw MLSCodecError.unknownValue(field: "LeafNodeSource", value: UInt64(code))
        }
    }
}
