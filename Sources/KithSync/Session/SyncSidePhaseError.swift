/// Why a ``SyncSidePhase`` stopped before both sides finished; the link is closed and the sync
/// session does not run.
public enum SyncSidePhaseError: Error, Sendable, CustomStringConvertible {
    /// Sending or receiving on the link failed.
    case link(SecureLinkError)
    /// A record other than a side chunk arrived before this side finished.
    case unexpectedRecord(SyncFrame.Kind)
    /// A side chunk broke the reassembly bounds or its hash.
    case reassembly(ReassemblyError)
    /// A message to send is empty or above ``SyncSidePhase/maximumMessageLength``.
    case messageTooLarge(Int)
    /// The peer sent more than ``SyncSidePhase/maximumMessages`` messages.
    case tooManyMessages

    /// A sentence saying what went wrong.
    public var description: String {
        switch self {
        case .link(let error): "side phase: \(error)"
        case .unexpectedRecord(let kind): "side phase: unexpected record \(kind) before the phase ended"
        case .reassembly(let error): "side phase: \(error)"
        case .messageTooLarge(let size): "side phase: a message of \(size) bytes is outside 1...\(SyncSidePhase.maximumMessageLength)"
        case .tooManyMessages: "side phase: the peer sent more than \(SyncSidePhase.maximumMessages) messages"
        }
    }
}
