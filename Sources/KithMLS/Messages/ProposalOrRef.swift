/// A proposal carried in a Commit, by value or by reference (RFC 9420 §12.4).
public enum ProposalOrRef: Hashable, Sendable, TLSCodable {
    /// The proposal itself.
    case proposal(Proposal)
    /// The `ProposalRef` of a proposal sent earlier in the epoch.
    case reference([UInt8])

    /// Encodes the type byte and the value.
    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .proposal(let proposal):
            writer.writeUInt8(1)
            proposal.encode(to: &writer)
        case .reference(let ref):
            writer.writeUInt8(2)
            writer.writeOpaque(ref)
        }
    }

    /// Decodes the type byte and the value.
    public init(from reader: inout TLSReader) throws {
        let type = try reader.readUInt8()
        switch type {
        case 1: self = .proposal(try Proposal(from: &reader))
        case 2: self = .reference(try reader.readOpaque())
        default: throw MLSCodecError.unknownValue(field: "ProposalOrRefType", value: UInt64(type))
        }
    }
}
