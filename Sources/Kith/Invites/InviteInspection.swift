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
        /// Read without an identity (``InviteInspection/inspect(_:now:)``): the signer was not compared with any
        /// contact's card; only a Convos / XMTP inbox binding can be checked.
        case notCompared
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
        case .contactMismatch, .unbound, .notCompared: return false
        }
    }

}

extension InviteInspection {
    /// Reads an invite without an identity (what `kith invite show` does in a home that has none): every field, the
    /// recovered signer, an XMTP inbox binding when there is one, and the expiry states; the signer is not compared
    /// with contacts (``SignerCheck/notCompared``).
    ///
    /// - Parameters:
    ///   - text: a link in any form `InviteLink` reads, or a bare code.
    ///   - now: seconds since 1970, for the expiry states.
    /// - Throws: ``KithError/invite(_:)`` for an invite that does not decode or whose signature does not recover.
    public static func inspect(_ text: String, now: Int64) throws(KithError) -> InviteInspection {
        let (invite, form, signer) = try decode(text)
        let payload = invite.payload
        let check: SignerCheck = payload.creatorInboxID.bindingNonce(for: signer).map { .inboxBinding(nonce: $0) } ?? .notCompared
        return InviteInspection(invite: invite, form: form, signer: signer, signerCheck: check, now: now)
    }

    /// The invite in `text`, the form it came in and the key its signature recovers.
    static func decode(_ text: String) throws(KithError) -> (SignedInvite, InviteLink.Form, InvitePublicKey) {
        do throws(InviteError) {
            let link = try InviteLink(parsing: text)
            let invite = try InviteCode.decode(link.code)
            return (invite, link.form, try invite.recoverSigner())
        } catch {
            throw .invite(error)
        }
    }

    /// An inspection with its expiry states computed at `now`.
    init(invite: SignedInvite, form: InviteLink.Form, signer: InvitePublicKey, signerCheck: SignerCheck, now: Int64) {
        let payload = invite.payload
        self.init(
            invite: invite, form: form, signer: signer, signerCheck: signerCheck,
            inviteExpired: (payload.expiresAtUnix ?? .max) < now, conversationExpired: (payload.conversationExpiresAtUnix ?? .max) < now)
    }
}
