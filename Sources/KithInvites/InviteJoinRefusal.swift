/// Why an invite's creator refused a join request, in the order the creator checks (``InviteJoinLadder``), and
/// whether the requester hears about it.
///
/// Refusals before the signature check never answer (an answer would let anyone use the creator as a reflector for
/// forged invites), as in Convos; refusals after it answer with an `invite_join_error` of ``replyKind``.
public enum InviteJoinRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request was handled before (the same message id): nothing happens twice.
    case alreadyHandled
    /// Too many refused requests from this requester lately; dropped before any cryptography.
    case rateLimited
    /// The invite code in the request does not decode.
    case unreadable(InviteError)
    /// The invite's `expiresAtUnix` has passed.
    case inviteExpired(expiresAtUnix: Int64)
    /// `creator_inbox_id` is not this identity's feed id.
    case creatorMismatch
    /// The invite was not signed by this identity's invite key.
    case badSignature
    /// The conversation exploded (the invite's `conversationExpiresAtUnix` passed, or the group ended).
    case conversationExploded
    /// The conversation token does not open with this identity's key.
    case tokenInvalid
    /// No active group of this identity has the token's group id.
    case groupNotFound
    /// The invite's tag is not the group's current tag (invites revoked, or rotated since).
    case tagMismatch
    /// A single-use invite was used already.
    case alreadyUsed
    /// The requester is a member already.
    case alreadyMember
    /// Every check passed but adding failed (the request's KeyPackage is not the requester's, or the commit failed).
    case addFailed(String)

    /// The `invite_join_error` kind sent back, or `nil` for a silent refusal.
    public var replyKind: String? {
        switch self {
        case .alreadyHandled, .rateLimited, .unreadable, .inviteExpired, .creatorMismatch, .badSignature, .tokenInvalid,
            .alreadyMember:
            return nil
        case .conversationExploded, .tagMismatch: return "conversation_expired"
        case .groupNotFound: return "conversation_not_found"
        case .alreadyUsed: return "invite_used"
        case .addFailed: return "generic_failure"
        }
    }

    /// A sentence for people (also the `reason` of the reply).
    public var description: String {
        switch self {
        case .alreadyHandled: return "request handled already"
        case .rateLimited: return "too many refused requests from this sender; dropped"
        case let .unreadable(error): return "invite does not read: \(error.description)"
        case let .inviteExpired(at): return "invite expired at \(at) (Unix seconds)"
        case .creatorMismatch: return "invite names another creator"
        case .badSignature: return "invite was not signed by this identity's invite key"
        case .conversationExploded: return "the conversation exploded"
        case .tokenInvalid: return "invite token does not open"
        case .groupNotFound: return "the conversation no longer exists"
        case .tagMismatch: return "the invite was revoked (the conversation's invite tag changed)"
        case .alreadyUsed: return "the single-use invite was used already"
        case .alreadyMember: return "already a member"
        case let .addFailed(reason): return "adding failed: \(reason)"
        }
    }
}
