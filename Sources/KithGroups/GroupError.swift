/// Why a group operation or a group message was refused.
public enum GroupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Text that is not base64url of 32 bytes where a group id was expected.
    case invalidGroupID(String)

    public var description: String {
        switch self {
        case .invalidGroupID(let text):
            "invalid group id '\(text.prefix(64))': expected 43 characters of base64url (32 bytes)"
        }
    }
}
