/// A proposal received or sent in the current epoch, waiting for a commit.
public struct PendingProposal: Sendable, Hashable {
    /// `ProposalRef` of the message that carried the proposal.
    public var reference: [UInt8]
    /// The proposal.
    public var proposal: Proposal
    /// Who proposed it.
    public var sender: Sender
}
