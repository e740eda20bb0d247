/// Why a device move failed. Nothing is written on the new device and nothing changes on the old one for any of
/// these (docs/CONTINUITY.md, section 7).
public enum MoveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The move code text does not decode (wrong prefix, version, length, host or key).
    case invalidCode(String)
    /// The sender's proof of the code does not match: it holds another code (or a mistyped one).
    case wrongCode
    /// The peer sent a message that does not decode or does not fit the protocol at this point.
    case protocolViolation(String)
    /// The stream declared or carried more bytes than allowed or than it announced.
    case oversize(String)
    /// The peer refused the move and said why.
    case refusedByPeer(String)
    /// No sender connected in time, or the peer went silent.
    case timedOut(String)

    public var description: String {
        switch self {
        case .invalidCode(let reason): "move code refused: \(reason); scan or paste the code the new device shows"
        case .wrongCode:
            "wrong move code: the sender's code does not match the one this device shows; nothing was transferred"
        case .protocolViolation(let reason): "move aborted: the other device broke the protocol (\(reason)); nothing was changed"
        case .oversize(let reason): "move aborted: \(reason); nothing was changed"
        case .refusedByPeer(let reason): "the other device refused the move: \(reason)"
        case .timedOut(let reason): "move timed out: \(reason); start again with a new code"
        }
    }
}
