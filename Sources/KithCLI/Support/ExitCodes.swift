import Kith
import KithIdentity
import KithStore

/// The process exit codes of `kith` (documented in the README and `kith --help`): 0 success,
/// 1 verification or import found invalid entries, 2 invalid input or arguments, 3 no identity
/// in the home, 4 passphrase or backup key problem, 5 storage failure, 6 not yet supported, 64 usage.
extension KithError {
    /// The exit code for this error.
    var exitCode: Int32 {
        switch self {
        case .identity(let error), .vault(let error): Self.exitCode(of: error)
        case .store(let error):
            switch error {
            case .contactKeyConflict, .forkSwitchRefused: 2
            default: 5
            }
        case .feed, .input, .contacts, .ratchet, .sync, .invite, .fileSystem, .recovery: 2
        case .group(let error):
            if case .damagedState = error { 5 } else { 2 }
        case .circle(let error):
            if case .store = error { 5 } else { 2 }
        case .notYetSupported: 6
        case .persona(let error):
            if case .damaged = error { 5 } else { 2 }
        case .continuity(.backup(let error)):
            switch error {
            case .wrongKeyOrNotABackup, .invalidRecoveryKey, .invalidPassphrase: 4
            case .tampered, .malformed, .notABackup: 1
            case .unacceptableParameters: 2
            case .io: 5
            }
        case .continuity: 2
        }
    }

    private static func exitCode(of error: IdentityError) -> Int32 {
        switch error {
        case .vaultMissing: 3
        case .wrongPassphrase, .passphraseUnavailable, .invalidPassphrase: 4
        case .vaultExists, .invalidPublicKey, .invalidFeedID, .invalidSeedLength: 2
        default: 5
        }
    }
}
