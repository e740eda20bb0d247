/// Why contacts-audience content or an attachment could not be encrypted or decrypted.
public enum ContactsCipherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The recipient map is damaged: truncated, unordered, wrong version byte.
    case malformedMap(String)
    /// The map's version byte is not one this build reads.
    case unknownMapVersion(UInt8)
    /// More recipients than ``ContactsLimits/maxRecipients``.
    case tooManyRecipients(Int)
    /// This key holds no slot in the message: the reader is not a recipient.
    case notARecipient
    /// The slot matched but the content did not authenticate (tampered, or a wrong key).
    case authenticationFailed
    /// An X25519 agreement failed (invalid public key).
    case keyAgreementFailed(String)
    /// A blob is damaged or larger than allowed.
    case malformedBlob(String)
    /// A blob does not hash to the expected content hash.
    case blobHashMismatch

    public var description: String {
        switch self {
        case .malformedMap(let reason): "damaged recipient map: \(reason)"
        case .unknownMapVersion(let version): "recipient map version \(version) is not supported"
        case .tooManyRecipients(let count): "\(count) recipients; at most \(ContactsLimits.maxRecipients) are allowed per message"
        case .notARecipient: "this identity is not among the message's recipients"
        case .authenticationFailed: "the content does not authenticate: altered, or not meant for this key"
        case .keyAgreementFailed(let reason): "key agreement failed: \(reason)"
        case .malformedBlob(let reason): "damaged attachment: \(reason)"
        case .blobHashMismatch: "the attachment does not match its content hash"
        }
    }
}
