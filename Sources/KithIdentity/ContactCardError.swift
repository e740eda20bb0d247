/// Why a contact card was rejected.
public enum ContactCardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text form is not canonical base64url.
    case invalidText(String)
    /// The card ended early or has bytes after its signature.
    case malformed(String)
    /// The card's version byte is not one this build reads.
    case unknownVersion(UInt8)
    /// The card is larger than ``ContactCardLimits/maxCardBytes``.
    case tooLarge(Int)
    /// A field breaks its bound (name length, extension size or count, order).
    case invalidField(String, reason: String)
    /// A public key inside the card is not a valid key.
    case invalidKey(String)
    /// The card's feed id is not SHA-256 of its identity key.
    case feedIDMismatch(card: String, derived: String)
    /// The card's signature does not verify under its identity key (tampered or forged).
    case badSignature
    /// The signed prekey's signature does not verify under the identity key.
    case badPrekeySignature
    /// The card was created longer ago than the allowed maximum age.
    case tooOld(ageSeconds: Int64, maxAgeSeconds: Int64)
    /// The card's creation time lies in the future beyond the allowed clock skew.
    case fromTheFuture(secondsAhead: Int64)
    /// Signing a new card failed.
    case signingFailed(String)

    public var description: String {
        switch self {
        case .invalidText(let reason): "not a contact card (expected base64url text): \(reason)"
        case .malformed(let reason): "damaged contact card: \(reason)"
        case .unknownVersion(let version):
            "contact card version \(version) is not supported (this build reads version \(ContactCardLimits.currentVersion)); update Kith"
        case .tooLarge(let size): "contact card of \(size) bytes exceeds the \(ContactCardLimits.maxCardBytes)-byte limit"
        case .invalidField(let name, let reason): "contact card field '\(name)' is invalid: \(reason)"
        case .invalidKey(let name): "contact card holds an invalid \(name)"
        case .feedIDMismatch(let card, let derived): "contact card claims feed \(card) but its identity key belongs to feed \(derived)"
        case .badSignature: "the contact card's signature does not verify: it was altered or forged; ask for a fresh card"
        case .badPrekeySignature: "the contact card's signed prekey is not signed by its identity key"
        case .tooOld(let age, let max):
            "the contact card is \(age / 3600) hours old (at most \(max / 3600) hours allowed); ask for a fresh card"
        case .fromTheFuture(let ahead): "the contact card was created \(ahead) seconds in the future; check both clocks"
        case .signingFailed(let reason): "cannot sign the contact card: \(reason)"
        }
    }
}
