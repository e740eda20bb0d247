/// The stored form of a pending proposal, part of a serialized ``GroupState``:
/// `struct { opaque reference<V>; Proposal proposal; Sender sender; }` with a reference of `Nh` bytes.
extension PendingProposal {
    /// Writes the reference, the proposal and its sender.
    func encodeState(to writer: inout TLSWriter) {
        writer.writeOpaque(reference)
        proposal.encode(to: &writer)
        sender.encode(to: &writer)
    }

    /// Reads a proposal written by ``encodeState(to:)``.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        reference = try reader.readOpaque(exactly: suite.secretSize, field: "ProposalRef")
        proposal = try Proposal(from: &reader)
        sender = try Sender(from: &reader)
    }
}
