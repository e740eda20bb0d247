import KithCanonical
import KithIdentity
import KithRatchet

/// Why a prekey handover (``PrekeyHandover``) was refused: each rule it can break, typed.
public enum PrekeyHandoverError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is longer than any handover can be.
    case tooLarge(maximumBytes: Int)
    /// The text is not base64url.
    case notBase64URL
    /// A version this build does not read.
    case unknownVersion(UInt8)
    /// The bytes end early or an id field is malformed.
    case truncated(ByteReaderError)
    /// An issuer or recipient feed id is malformed.
    case invalidFeedID(IdentityError)
    /// Too short to hold a batch and a signature.
    case missingBatch
    /// The signature does not verify with the issuing contact's identity key.
    case badSignature
    /// The prekey batch inside is malformed.
    case invalidBatch(RatchetError)
    /// Signed by another feed than the contact it is imported from.
    case wrongIssuer(FeedID)
    /// Issued for another identity than this one.
    case wrongRecipient(FeedID)

    public var description: String {
        switch self {
        case .tooLarge(let maximum): "larger than \(maximum) bytes"
        case .notBase64URL: "not base64url text"
        case .unknownVersion(let version): "unknown version \(version)"
        case .truncated(let error): "truncated: \(error)"
        case .invalidFeedID(let error): "invalid feed id: \(error)"
        case .missingBatch: "too short to hold a prekey batch and a signature"
        case .badSignature: "the signature does not verify with the contact's identity key"
        case .invalidBatch(let error): "invalid prekey batch: \(error)"
        case .wrongIssuer(let issuer): "issued by \(issuer), not by this contact"
        case .wrongRecipient(let recipient): "meant for \(recipient), not for this identity"
        }
    }
}
