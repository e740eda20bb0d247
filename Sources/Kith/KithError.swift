import KithFeed
import KithIdentity
import KithStore

/// Errors surfaced by the facade, each with the process exit code the CLI uses.
public enum KithError: Error, Sendable, CustomStringConvertible {
    /// Identity or vault problem.
    case identity(IdentityError)
    /// Storage problem.
    case store(StoreError)
    /// Feed rule problem.
    case feed(FeedError)
    /// Bad input from the user (a file, an argument).
    case invalidInput(String)
    /// A capability that this build does not have yet.
    case notYetSupported(String)

    public var description: String {
        switch self {
        case .identity(let error): error.description
        case .store(let error): error.description
        case .feed(let error): error.description
        case .invalidInput(let message): message
        case .notYetSupported(let message): message
        }
    }

    /// Exit codes (documented in the README): 1 verification found invalid input, 2 invalid input
    /// or arguments, 3 no identity in the home, 4 passphrase problem, 5 storage failure,
    /// 6 not yet supported.
    public var exitCode: Int32 {
        switch self {
        case .identity(let error):
            switch error {
            case .vaultMissing: 3
            case .wrongPassphrase, .passphraseUnavailable, .invalidPassphrase: 4
            case .vaultExists, .invalidPublicKey, .invalidFeedID, .invalidSeedLength: 2
            default: 5
            }
        case .store(let error):
            if case .contactKeyConflict = error { 2 } else { 5 }
        case .feed, .invalidInput: 2
        case .notYetSupported: 6
        }
    }

    /// Maps any error of the lower modules to its facade case (unknown errors become
    /// ``invalidInput(_:)`` with their description).
    public static func from(_ error: any Error) -> KithError {
        switch error {
        case let error as KithError: error
        case let error as IdentityError: .identity(error)
        case let error as StoreError: .store(error)
        case let error as FeedError: .feed(error)
        default: .invalidInput("\(error)")
        }
    }
}
