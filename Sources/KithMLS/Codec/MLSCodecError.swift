/// Errors raised while decoding or encoding TLS presentation-language data (RFC 9420 §2.1).
public enum MLSCodecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended before `needed` more bytes could be read at `offset`.
    case truncated(offset: Int, needed: Int)
    /// A variable-length integer used the reserved `0b11` prefix.
    case invalidVarIntPrefix(offset: Int)
    /// A variable-length integer was not encoded in the fewest bytes possible.
    case nonMinimalVarInt(offset: Int)
    /// A value does not fit the variable-length integer encoding (more than 2^30 - 1).
    case varIntTooLarge(value: Int)
    /// Bytes were left over after a complete structure was decoded.
    case trailingBytes(count: Int)
    /// An enumerated field carried a value this implementation does not know.
    case unknownValue(field: String, value: UInt64)
    /// An optional's presence byte was neither 0 nor 1.
    case invalidOptionalFlag(offset: Int, value: UInt8)
    /// A fixed-length field had the wrong length.
    case invalidLength(field: String, expected: Int, actual: Int)
    /// A field carried a value the protocol forbids.
    case invalidValue(field: String, reason: String)

    /// A human-readable explanation with the offending offset or field.
    public var description: String {
        switch self {
        case .truncated(let offset, let needed):
            "input truncated: \(needed) more byte(s) needed at offset \(offset)"
        case .invalidVarIntPrefix(let offset):
            "variable-length integer at offset \(offset) uses the reserved 0b11 prefix"
        case .nonMinimalVarInt(let offset):
            "variable-length integer at offset \(offset) is not minimally encoded"
        case .varIntTooLarge(let value):
            "value \(value) exceeds the variable-length integer maximum 2^30-1"
        case .trailingBytes(let count):
            "\(count) unexpected trailing byte(s) after the structure"
        case .unknownValue(let field, let value):
            "unknown value \(value) for \(field)"
        case .invalidOptionalFlag(let offset, let value):
            "optional presence byte at offset \(offset) is \(value), expected 0 or 1"
        case .invalidLength(let field, let expected, let actual):
            "\(field) has length \(actual), expected \(expected)"
        case .invalidValue(let field, let reason):
            "invalid \(field): \(reason)"
        }
    }
}
