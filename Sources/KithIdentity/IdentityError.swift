/// Errors of identity creation, key parsing and the key vault.
public enum IdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A seed must be exactly 32 bytes.
    case invalidSeedLength(Int)
    /// Deriving a key from the seed failed (should not happen with a valid seed).
    case keyDerivationFailed(String)
    /// Ed25519 signing failed.
    case signingFailed(String)
    /// A feed id is not 43 characters of canonical base64url of 32 bytes.
    case invalidFeedID(String, reason: String)
    /// A public key could not be parsed.
    case invalidPublicKey(kind: String, reason: String)
    /// No vault exists at the path: run `kith init` first.
    case vaultMissing(path: String)
    /// A vault already exists and would be overwritten.
    case vaultExists(path: String)
    /// The vault file is damaged or of an unknown format.
    case vaultCorrupt(path: String, reason: String)
    /// The passphrase does not open the vault. Nothing was changed.
    case wrongPassphrase
    /// No passphrase could be obtained: not interactive and `KITH_PASSPHRASE` unset.
    case passphraseUnavailable
    /// The passphrase is empty or too long.
    case invalidPassphrase(String)
    /// Reading or writing the vault file failed.
    case vaultIO(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidSeedLength(let count): "a seed is 32 bytes, got \(count)"
        case .keyDerivationFailed(let reason): "key derivation failed: \(reason)"
        case .signingFailed(let reason): "signing failed: \(reason)"
        case .invalidFeedID(let text, let reason): "invalid feed id '\(text.prefix(64))': \(reason)"
        case .invalidPublicKey(let kind, let reason): "invalid \(kind): \(reason)"
        case .vaultMissing(let path): "no identity at \(path); run `kith init` first"
        case .vaultExists(let path): "an identity already exists at \(path); refusing to overwrite it"
        case .vaultCorrupt(let path, let reason): "the key vault \(path) is damaged: \(reason)"
        case .wrongPassphrase: "wrong passphrase: the key vault could not be opened (nothing was changed)"
        case .passphraseUnavailable:
            "a passphrase is needed: set KITH_PASSPHRASE or run interactively"
        case .invalidPassphrase(let reason): "unusable passphrase: \(reason)"
        case .vaultIO(let path, let reason): "cannot access the key vault \(path): \(reason)"
        }
    }
}
