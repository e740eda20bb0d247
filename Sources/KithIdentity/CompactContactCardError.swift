/// Why a compact contact card, or the full card offered to complete it, was rejected.
public enum CompactContactCardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text does not start with ``CompactContactCard/textPrefix`` or is not canonical base32 after it.
    case invalidText(String)
    /// The card ended early or has bytes after its signature.
    case malformed(String)
    /// A version this build does not read.
    case unknownVersion(UInt8)
    /// Larger than ``CompactContactCard/maxBytes``.
    case tooLarge(Int)
    /// A field breaks its bound (flags, name).
    case invalidField(String, reason: String)
    /// A key inside the card is not a valid key.
    case invalidKey(String)
    /// The signature does not verify under the card's identity key.
    case badSignature
    /// The full card is not the one the compact card commits to.
    case commitmentMismatch
    /// The full card commits correctly but names other keys or another feed than the compact card.
    case keyMismatch(String)
    /// Signing a new compact card failed.
    case signingFailed(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .invalidText(let reason): "not a compact contact card (expected \(CompactContactCard.textPrefix) and base32): \(reason)"
        case .malformed(let reason): "damaged compact contact card: \(reason)"
        case .unknownVersion(let version):
            "compact contact card version \(version) is not supported (this build reads version \(CompactContactCard.currentVersion)); update Kith"
        case .tooLarge(let size): "compact contact card of \(size) bytes exceeds the \(CompactContactCard.maxBytes)-byte limit"
        case .invalidField(let name, let reason): "compact contact card field '\(name)' is invalid: \(reason)"
        case .invalidKey(let name): "compact contact card holds an invalid \(name)"
        case .badSignature: "the compact contact card's signature does not verify: it was altered or forged; scan it again"
        case .commitmentMismatch:
            "the full card is not the one the scanned compact card commits to (altered, or another card); ask for the card again"
        case .keyMismatch(let what): "the full card's \(what) differs from the scanned compact card's; it is not the same person's card"
        case .signingFailed(let reason): "cannot sign the compact contact card: \(reason)"
        }
    }
}
