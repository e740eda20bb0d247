/// Why a recovery release through the relay failed (the relay, the channel or the other side's messages).
public enum RecoveryRelayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The encrypted channel failed: the relay ended, timed out, or a frame was tampered with or replayed.
    case channel(RelayChannelError)
    /// An opened message is not a recovery relay message (unknown kind, a request or release that does not decode).
    case malformedMessage(String)
    /// The other side sent a valid message out of turn (`got` names it).
    case unexpectedMessage(got: String)

    /// One sentence with the cause.
    public var description: String {
        switch self {
        case .channel(.transport(.closed)), .channel(.transport(.disconnected)): "the other side left before the release was done"
        case .channel(.transport(.idleTimeout)): "the other side did not answer in time"
        case .channel(let error): error.description
        case .malformedMessage(let reason): "the other side sent a malformed recovery message (\(reason))"
        case .unexpectedMessage(let got): "the other side sent \(got) out of turn"
        }
    }
}
