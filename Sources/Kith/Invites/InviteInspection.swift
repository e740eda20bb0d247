import KithIdentity
import KithInvites

/// What an invite says and what of it can be checked here, for `kith invite show` (untrusted text fields: render
/// them sanitized).
public struct InviteInspection: Sendable, Equatable {
    /// How the signer relates to the invite's creator.
    public enum SignerCheck: Sendable, Equatable {
        /// The signer derives `creator_inbox_id` with this nonce (a Convos / XMTP inbox).
        case inboxBinding(nonce: UInt64)
        /// `creator_inbox_id` is a contact's feed id and the signer is the invite key on that contact's card.
        case knownContact(FeedID)
        /// `creator_inbox_id` is this identity's feed id and the signer is its invite key.
        case ownInvite
        /// `creator_inbox_id` is a contact's feed id, but the signer is not the invite key on that contact's card
        /// (forged, or the card carries no invite key).
        case contactMismatch(FeedID)
        /// Nothing here binds the signer to the creator (a stranger's Kith invite): the signature only recovers.
        case unbound
    }

    /// The invite as decoded.
    public let invite: SignedInvite
    /// Where the code was found.
    public let form: InviteLink.Form
    /// The key the signature recovers.
    public let signer: InvitePublicKey
    /// What binds the signer to the creator, if anything.
    public let signerCheck: SignerCheck
    /// The invite's own expiry (`expiresAtUnix`) has passed.
    public let inviteExpired: Bool
    /// The conversation's explosion time (`conversationExpiresAtUnix`) has passed.
    public let conversationExpired: Bool

    /// True when the creator is authenticated (binding, own invite or a contact's card key).
    public var isAuthenticated: Bool {
        switch signerCheck {
        case .inboxBinding, .knownContact, .ownInvite: return true
        case .contactMismatch, .unbound: return false
        }
    }
}
