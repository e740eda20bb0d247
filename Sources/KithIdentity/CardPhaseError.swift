import KithCanonical

/// Why a card-phase message was refused.
public enum CardPhaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Truncated, or trailing bytes.
    case malformed(ByteReaderError)
    /// An unknown message kind.
    case unknownKind(UInt8)
    /// Opening flags other than 0 and 1.
    case unknownFlags(UInt8)
    /// A card length outside 1...``CardPhaseMessage/maximumCardLength``.
    case cardLength(Int)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .malformed(let error): "card phase message: \(error)"
        case .unknownKind(let kind): "card phase message: unknown kind \(kind)"
        case .unknownFlags(let flags): "card phase opening: unknown flags \(flags)"
        case .cardLength(let length): "card phase card: \(length) bytes is outside 1...\(CardPhaseMessage.maximumCardLength)"
        }
    }
}
