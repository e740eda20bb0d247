/// Why a one-time key pool operation failed.
public enum OneTimeKeyPoolError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A pool size outside 1...``OneTimeKeyPool/maximumSize``.
    case invalidSize(Int)
    /// Every key of the peer's pool has been used: meet the peer again to renew, never reuse a key.
    case exhausted
    /// No unused private key has this id: already used (a replay), revoked, or never ours.
    case unknownKey(OneTimeKeyID)
    /// The NanoTDF carries no 8-byte key id in its KAS locator.
    case missingKeyID
    /// An offered public key is not a valid P-256 point, or appears twice.
    case invalidOffer(reason: String)
    /// Decrypting with the pool key failed; the key is kept (a forgery must not burn keys).
    case decryption(NanoTDFError)
    /// Encrypting to the pool key failed (an invalid locator body, an oversize plaintext).
    case encryption(NanoTDFError)
    /// The message decrypted but its policy does not name the envelope it came in (moved or forged); the key is kept.
    case policyMismatch

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .invalidSize(let size): "pool size \(size) is outside 1...\(OneTimeKeyPool.maximumSize)"
        case .exhausted: "the peer's one-time key pool is exhausted: renew it at the next meeting"
        case .unknownKey(let id): "no unused one-time key \(id): already used (replay), revoked or unknown"
        case .missingKeyID: "the NanoTDF's KAS locator has no 8-byte one-time key id"
        case .invalidOffer(let reason): "invalid one-time key offer: \(reason)"
        case .decryption(let error): "one-time message did not decrypt: \(error)"
        case .encryption(let error): "one-time message could not be encrypted: \(error)"
        case .policyMismatch: "one-time message policy does not match its envelope (moved or forged)"
        }
    }
}
