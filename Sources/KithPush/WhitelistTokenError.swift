/// Why a whitelist token could not be read.
public enum WhitelistTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is not 20 bytes (40 hex characters); the associated value is the byte length found.
    case wrongLength(Int)
    /// A character is not a hex digit.
    case notHex(offset: Int)

    /// The stable reason code.
    public var code: String {
        switch self {
        case .wrongLength: "wrong_length"
        case .notHex: "not_hex"
        }
    }

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .wrongLength(let length): "whitelist token is \(length) bytes; expected \(PushLimits.whitelistTokenBytes) (40 hex characters)"
        case .notHex(let offset): "whitelist token has a non-hex character at offset \(offset)"
        }
    }
}
