/// Why a byte string was rejected as Kith canonical JSON.
///
/// Every case carries the byte offset in the input where the problem was detected (when one
/// exists), and ``code`` gives a stable snake_case identifier suitable for logs and wire reports.
public enum CanonicalJSONError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input is larger than ``JSONLimits/maxBytes`` (the associated value is its size).
    case tooLarge(Int)
    /// Containers are nested deeper than ``JSONLimits/maxDepth``.
    case tooDeep(offset: Int)
    /// An array or object has more than ``JSONLimits/maxContainerElements`` entries, or the document
    /// has more than ``JSONLimits/maxTotalValues`` values.
    case tooManyElements(offset: Int)
    /// A decoded string (or key) is longer than ``JSONLimits/maxStringBytes`` UTF-8 bytes.
    case stringTooLong(offset: Int)
    /// The input ended in the middle of a value.
    case unexpectedEnd
    /// A byte that cannot start or continue the expected JSON token.
    case unexpectedByte(offset: Int, byte: UInt8)
    /// Bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates, truncated sequences…).
    case invalidUTF8(offset: Int)
    /// A `\u` escape of a UTF-16 surrogate that is not part of a valid high/low pair.
    case loneSurrogate(offset: Int)
    /// A raw byte U+0000…U+001F inside a string; JSON requires it to be escaped.
    case controlCharacterInString(offset: Int)
    /// A backslash escape that JSON does not define, or a malformed `\u` escape.
    case invalidEscape(offset: Int)
    /// A number with a fraction or exponent: outside Kith's integer-only subset.
    case nonInteger(offset: Int)
    /// An integer whose magnitude exceeds 2^53 − 1 (not exactly representable in I-JSON).
    case integerOutOfRange(offset: Int)
    /// An integer written with a superfluous leading zero, such as `01`.
    case leadingZero(offset: Int)
    /// An object repeats a key (keys are compared byte for byte, never Unicode-normalised).
    case duplicateKey(String)
    /// Something other than whitespace follows the top-level value.
    case trailingData(offset: Int)
    /// The input is valid JSON but not the exact RFC 8785 canonical form; `offset` is the first differing byte.
    case notCanonical(offset: Int)

    /// A stable snake_case reason code, e.g. `non_integer`, `duplicate_key`, `not_canonical`.
    public var code: String {
        switch self {
        case .tooLarge: "too_large"
        case .tooDeep: "too_deep"
        case .tooManyElements: "too_many_elements"
        case .stringTooLong: "string_too_long"
        case .unexpectedEnd: "unexpected_end"
        case .unexpectedByte: "unexpected_byte"
        case .invalidUTF8: "invalid_utf8"
        case .loneSurrogate: "lone_surrogate"
        case .controlCharacterInString: "control_character_in_string"
        case .invalidEscape: "invalid_escape"
        case .nonInteger: "non_integer"
        case .integerOutOfRange: "integer_out_of_range"
        case .leadingZero: "leading_zero"
        case .duplicateKey: "duplicate_key"
        case .trailingData: "trailing_data"
        case .notCanonical: "not_canonical"
        }
    }

    /// One human sentence explaining the rejection.
    public var description: String {
        switch self {
        case .tooLarge(let size):
            "JSON input of \(size) bytes exceeds the size limit"
        case .tooDeep(let offset):
            "JSON containers are nested too deeply at offset \(offset)"
        case .tooManyElements(let offset):
            "too many JSON elements (per container or in total) at offset \(offset)"
        case .stringTooLong(let offset):
            "JSON string starting at offset \(offset) exceeds the string length limit"
        case .unexpectedEnd:
            "JSON input ended before the value was complete"
        case .unexpectedByte(let offset, let byte):
            "unexpected byte 0x\(String(byte, radix: 16)) at offset \(offset) in JSON input"
        case .invalidUTF8(let offset):
            "invalid UTF-8 sequence at offset \(offset) in JSON string"
        case .loneSurrogate(let offset):
            "\\u escape at offset \(offset) is an unpaired UTF-16 surrogate"
        case .controlCharacterInString(let offset):
            "unescaped control character at offset \(offset) in JSON string"
        case .invalidEscape(let offset):
            "invalid escape sequence at offset \(offset) in JSON string"
        case .nonInteger(let offset):
            "number at offset \(offset) has a fraction or exponent; Kith JSON allows integers only"
        case .integerOutOfRange(let offset):
            "integer at offset \(offset) is outside ±(2^53 − 1)"
        case .leadingZero(let offset):
            "integer at offset \(offset) has a leading zero"
        case .duplicateKey(let key):
            "JSON object repeats the key \"\(key)\""
        case .trailingData(let offset):
            "unexpected data after the JSON value at offset \(offset)"
        case .notCanonical(let offset):
            "JSON is not in RFC 8785 canonical form (first difference at offset \(offset))"
        }
    }
}
