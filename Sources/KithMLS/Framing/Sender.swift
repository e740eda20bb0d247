/// Who sent a framed message (RFC 9420 §6).
public enum Sender: Hashable, Sendable, TLSCodable {
    /// A current member, by leaf index.
    case member(LeafIndex)
    /// An external sender listed in the `external_senders` extension, by index.
    case external(UInt32)
    /// A prospective member proposing its own Add.
    case newMemberProposal
    /// A new member joining through an external commit.
    case newMemberCommit

    /// Encodes `SenderType sender_type` and its payload.
    public func encode(to writer: inout TLSWriter) {
        switch self {
        case .member(let leaf):
            writer.writeUInt8(1)
            writer.writeUInt32(leaf.value)
        case .external(let index):
            writer.writeUInt8(2)
            writer.writeUInt32(index)
        case .newMemberProposal: writer.writeUInt8(3)
        case .newMemberCommit: writer.writeUInt8(4)
        }
    }

    /// Decodes a sender.
    public init(from reader: inout TLSReader) throws {
        let type = try reader.readUInt8()
        switch type {
        case 1: self = .member(LeafIndex(try reader.readUInt32()))
        case 2: self = .external(try reader.readUInt32())
        case 3: self = .newMemberProposal
        case 4: self = .newMemberCommit
        default: throw MLSCodecError.unknownValue(field: "SenderType", value: UInt64(type))
        }
    }

    /// True for senders whose signatures cover the GroupContext (members and new-member commits).
    var signsGroupContext: Bool {
        switch self {
        case .member, .newMemberCommit: true
        case .external, .newMemberProposal: false
        }
    }
}
