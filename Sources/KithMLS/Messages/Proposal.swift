/// A proposed change to the group (RFC 9420 §12.1).
public enum Proposal: Hashable, Sendable, TLSCodable {
    /// Add the member of a KeyPackage.
    case add(KeyPackage)
    /// Replace the sender's own leaf.
    case update(LeafNode)
    /// Remove the member at a leaf.
    case remove(LeafIndex)
    /// Inject a PSK into the next epoch.
    case preSharedKey(PreSharedKeyID)
    /// Re-initialize the group with new parameters.
    case reinit(ReInit)
    /// Carry the KEM output of an external join.
    case externalInit(kemOutput: [UInt8])
    /// Replace the GroupContext extensions.
    case groupContextExtensions([Extension])

    /// The proposal type.
    public var type: ProposalType {
        switch self {
        case .add: .add
        case .update: .update
        case .remove: .remove
        case .preSharedKey: .psk
        case .reinit: .reinit
        case .externalInit: .externalInit
        case .groupContextExtensions: .groupContextExtensions
        }
    }

    /// Encodes the body only (the struct named after the type, e.g. `Add`).
    public func encodeBody(to writer: inout TLSWriter) {
        switch self {
        case .add(let keyPackage): keyPackage.encode(to: &writer)
        case .update(let leaf): leaf.encode(to: &writer)
        case .remove(let leaf): writer.writeUInt32(leaf.value)
        case .preSharedKey(let id): id.encode(to: &writer)
        case .reinit(let body): body.encode(to: &writer)
        case .externalInit(let kemOutput): writer.writeOpaque(kemOutput)
        case .groupContextExtensions(let extensions): writer.writeVector(extensions)
        }
    }

    /// Decodes the body of a proposal of `type`; unknown proposal types cannot be parsed and throw.
    public static func decodeBody(type: ProposalType, from reader: inout TLSReader) throws -> Proposal {
        switch type {
        case .add: return .add(try KeyPackage(from: &reader))
        case .update: return .update(try LeafNode(from: &reader))
        case .remove: return .remove(LeafIndex(try reader.readUInt32()))
        case .psk: return .preSharedKey(try PreSharedKeyID(from: &reader))
        case .reinit: return .reinit(try ReInit(from: &reader))
        case .externalInit: return .externalInit(kemOutput: try reader.readOpaque())
        case .groupContextExtensions: return .groupContextExtensions(try reader.readVector(of: Extension.self))
        default: throw MLSCodecError.unknownValue(field: "ProposalType", value: UInt64(type.rawValue))
        }
    }

    /// Encodes `ProposalType proposal_type` followed by the body.
    public func encode(to writer: inout TLSWriter) {
        type.encode(to: &writer)
        encodeBody(to: &writer)
    }

    /// Decodes a proposal.
    public init(from reader: inout TLSReader) throws {
        let type = try ProposalType(from: &reader)
        self = try Proposal.decodeBody(type: type, from: &reader)
    }

    /// `ProposalRef = RefHash("MLS 1.0 Proposal Reference", AuthenticatedContent)` for the message that carried it (RFC 9420 §5.2).
    public static func reference(suite: CipherSuite, authenticatedContent: [UInt8]) -> [UInt8] {
        suite.refHash(label: "MLS 1.0 Proposal Reference", value: authenticatedContent)
    }
}
