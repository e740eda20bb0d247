/// Errors raised while opening a Welcome (RFC 9420 §12.4.3.1).
public enum MLSWelcomeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No EncryptedGroupSecrets entry names the KeyPackage.
    case notForThisKeyPackage
    /// The Welcome's cipher suite differs from the KeyPackage's.
    case cipherSuiteMismatch
    /// The GroupInfo signature does not verify.
    case invalidGroupInfoSignature
    /// The GroupInfo confirmation tag does not match the derived key schedule.
    case confirmationTagMismatch

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .notForThisKeyPackage: "the Welcome has no secrets for this KeyPackage"
        case .cipherSuiteMismatch: "the Welcome's cipher suite differs from the KeyPackage's"
        case .invalidGroupInfoSignature: "the GroupInfo signature does not verify"
        case .confirmationTagMismatch: "the GroupInfo confirmation tag does not match"
        }
    }
}
