import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a passphrase comes from: the `KITH_PASSPHRASE` environment variable, else an
/// interactive prompt on the terminal, else a clear error.
public enum PassphraseSource {
    /// The environment variable consulted first.
    public static let environmentVariable = "KITH_PASSPHRASE"

    /// Returns the passphrase from the environment or the terminal.
    ///
    /// - Parameters:
    ///   - prompt: shown on the terminal when asking interactively.
    ///   - confirm: ask twice and require both answers to match (for new vaults).
    /// - Throws: ``IdentityError/passphraseUnavailable`` when standard input is not a terminal
    ///   and the variable is unset.
    public static func obtain(prompt: String = "Kith passphrase: ", confirm: Bool = false) throws(IdentityError) -> String {
        if let value = ProcessInfo.processInfo.environment[environmentVariable] {
            return value
        }
        guard isatty(STDIN_FILENO) == 1 else { throw .passphraseUnavailable }
        let first = try readHidden(prompt)
        if confirm {
            let second = try readHidden("Repeat passphrase: ")
            guard first == second else { throw .invalidPassphrase("the two entries differ") }
        }
        return first
    }

    private static func readHidden(_ prompt: String) throws(IdentityError) -> String {
        guard let raw = getpass(prompt) else { throw .passphraseUnavailable }
        return String(cString: raw)
    }
}
