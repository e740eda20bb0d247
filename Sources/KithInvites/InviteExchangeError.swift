/// Why a message of the invite exchange (``InviteExchangeMessage``) was refused.
public enum InviteExchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message is truncated, has trailing bytes or a field of the wrong form.
    case malformed(String)
    /// A field is larger than its bound.
    case fieldTooLarge(field: String, bytes: Int, limit: Int)
    /// The first byte names no message kind.
    case unknownKind(UInt8)
    /// A message arrived that the exchange does not expect at this step.
    case unexpected(String)

    /// One sentence for logs and the terminal.
    public var description: String {
        switch self {
        case let .malformed(what): "invite exchange message is malformed: \(what)"
        case let .fieldTooLarge(field, bytes, limit): "invite exchange field \(field) is \(bytes) bytes (at most \(limit))"
        case let .unknownKind(kind): "invite exchange message kind 0x\(String(kind, radix: 16)) is unknown"
        case let .unexpected(what): "invite exchange: unexpected \(what)"
        }
    }
}
