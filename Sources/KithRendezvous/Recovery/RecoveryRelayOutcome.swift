import KithContinuity

/// How one guardian's turn ended for the new device (``RecoveryRelay/ask(over:role:request:keep:)``).
public enum RecoveryRelayOutcome: Sendable, Equatable {
    /// The guardian released its share and the new device kept it.
    case kept(RecoveryRelease)
    /// The guardian released a share that the new device refused (does not open, replayed, another set).
    case refused(RecoveryRelease)
    /// The guardian sent nothing (the safety codes differed, or it holds no share).
    case declined
}

/// How the guardian's turn ended for the guardian (``RecoveryRelay/answer(over:role:release:)``).
public enum RecoveryRelayAnswer: Sendable, Equatable {
    /// The release was sent and the new device kept it.
    case kept
    /// The release was sent and the new device refused it.
    case refused
    /// Nothing was sent.
    case declined
}
