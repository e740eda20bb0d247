/// Why a provider configuration could not be created or loaded: each case names the setting or file
/// and what to fix. Messages never include key material.
public enum PushConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read.
    case unreadableFile(path: String, reason: String)
    /// A file is larger than any valid key or credentials file.
    case fileTooLarge(path: String, size: Int, limit: Int)
    /// A private key is not a usable PEM / raw key of the required type.
    case invalidPrivateKey(what: String, reason: String)
    /// A setting has an invalid value.
    case invalidSetting(name: String, reason: String)
    /// The FCM service-account JSON lacks a field or has a malformed one.
    case invalidServiceAccount(reason: String)

    /// A stable reason code.
    public var code: String {
        switch self {
        case .unreadableFile: "unreadable_file"
        case .fileTooLarge: "file_too_large"
        case .invalidPrivateKey: "invalid_private_key"
        case .invalidSetting: "invalid_setting"
        case .invalidServiceAccount: "invalid_service_account"
        }
    }

    /// An actionable message.
    public var description: String {
        switch self {
        case let .unreadableFile(path, reason): "cannot read \(path): \(reason)"
        case let .fileTooLarge(path, size, limit): "\(path) is \(size) bytes; a key or credentials file is at most \(limit) bytes"
        case let .invalidPrivateKey(what, reason): "\(what) is not usable: \(reason)"
        case let .invalidSetting(name, reason): "setting \(name) is invalid: \(reason)"
        case let .invalidServiceAccount(reason): "FCM service-account JSON is invalid: \(reason)"
        }
    }
}
