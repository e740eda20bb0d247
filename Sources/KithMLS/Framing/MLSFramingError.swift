/// Errors raised while protecting or unprotecting framed messages (RFC 9420 §6).
public enum MLSFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The membership tag is missing or does not match.
    case invalidMembershipTag
    /// The message's signature does not verify.
    case invalidSignature
    /// A commit lacked a confirmation tag, or other content carried one.
    case confirmationTagMismatch
    /// The padding of a PrivateMessageContent contained a non-zero byte.
    case nonZeroPadding
    /// The message belongs to another group or epoch.
    case wrongGroupOrEpoch
    /// A PrivateMessage was sent by a non-member (only members may encrypt).
    case senderNotMember
    /// The sender's leaf is blank or outside the tree.
    case unknownSender(LeafIndex)
    /// The content type is not allowed in this wire format.
    case contentTypeNotAllowed

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .invalidMembershipTag: "membership tag is missing or does not match"
        case .invalidSignature: "message signature does not verify"
        case .confirmationTagMismatch: "confirmation tag is missing, unexpected or wrong"
        case .nonZeroPadding: "PrivateMessage padding contains a non-zero byte"
        case .wrongGroupOrEpoch: "message is for another group or epoch"
        case .senderNotMember: "only members can send PrivateMessages"
        case .unknownSender(let leaf): "sender \(leaf) is not a member"
        case .contentTypeNotAllowed: "content type not allowed in this wire format"
        }
    }
}
