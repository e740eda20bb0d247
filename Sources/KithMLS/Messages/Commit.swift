/// A Commit: the proposals it applies and an optional UpdatePath (RFC 9420 §12.4).
public struct Commit: Hashable, Sendable, TLSCodable {
    /// The proposals, by value or reference, in order.
    public var proposals: [ProposalOrRef]
    /// The committer's path update, if any.
    public var path: UpdatePath?

    /// Creates a commit.
    public init(proposals: [ProposalOrRef], path: UpdatePath?) {
        self.proposals = proposals
        self.path = path
    }

    /// Encodes the commit.
    public func encode(to writer: inout TLSWriter) {
        writer.writeVector(proposals)
        writer.writeOptional(path)
    }

    /// Decodes the commit.
    public init(from reader: inout TLSReader) throws {
        proposals = try reader.readVector(of: ProposalOrRef.self)
        path = try reader.readOptional(of: UpdatePath.self)
    }
}
