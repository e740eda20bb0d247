/// The payload of a framed message (RFC 9420 §6).
public enum FramedContentBody: Hashable, Sendable {
    /// Application data.
    case application([UInt8])
    /// A proposal.
    case proposal(Proposal)
    /// A commit.
    case commit(Commit)

    /// The matching content type.
    public var contentType: ContentType {
        switch self {
        case .application: .application
        case .proposal: .proposal
        case .commit: .commit
        }
    }

    /// Encodes the payload without the content type.
    func encode(to writer: inout TLSWriter) {
        switch self {
        case .application(let data): writer.writeOpaque(data)
        case .proposal(let proposal): proposal.encode(to: &writer)
        case .commit(let commit): commit.encode(to: &writer)
        }
    }

    /// Decodes a payload of `type`.
    static func decode(type: ContentType, from reader: inout TLSReader) throws -> FramedContentBody {
        switch type {
        case .application: .application(try reader.readOpaque())
        case .proposal: .proposal(try Proposal(from: &reader))
        case .commit: .commit(try Commit(from: &reader))
        }
    }
}
