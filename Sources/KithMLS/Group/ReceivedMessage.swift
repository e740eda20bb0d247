/// What handling an incoming message produced.
public enum ReceivedMessage: Sendable, Equatable {
    /// Decrypted application data from a member.
    case application(data: [UInt8], sender: LeafIndex)
    /// A proposal stored for a later commit, with its `ProposalRef`.
    case proposal(reference: [UInt8])
    /// A commit moved the group to a new epoch.
    case newEpoch(UInt64)
    /// A commit removed this member; the state is unchanged and should be discarded.
    case removedFromGroup
}
