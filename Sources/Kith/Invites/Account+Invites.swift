import Foundation
import KithConvos
import KithGroups
import KithIdentity
import KithInvites
import KithStore

/// Convos-compatible invites to groups (docs/INVITES.md): making, reading and revoking them.
///
/// ```swift
/// let made = try await alice.invites.create(group: group.id, expiresIn: 86_400, singleUse: true)
/// print(made.url)                                   // kith://invite/<code>
/// // on Bob's device (Bob is Alice's contact):
/// try await bob.invites.accept(made.url)             // sends Alice a join request with a KeyPackage
/// // after a sync, Alice's processing adds Bob with one commit; Bob's joins from the Welcome.
/// try await alice.invites.revoke(group: group.id)    // rotates the tag: every outstanding invite stops working
/// ```
extension Account {
    // MARK: Reading

    func inspectInviteBlocking(_ text: String) throws(KithError) -> InviteInspection {
        let (invite, form, signer) = try InviteInspection.decode(text)
        return InviteInspection(
            invite: invite, form: form, signer: signer, signerCheck: try signerCheck(of: invite.payload, signer: signer), now: clock())
    }

    /// How `signer` relates to the invite's creator.
    func signerCheck(of payload: InvitePayload, signer: InvitePublicKey) throws(KithError) -> InviteInspection.SignerCheck {
        if let nonce = payload.creatorInboxID.bindingNonce(for: signer) { return .inboxBinding(nonce: nonce) }
        guard let creator = payload.creatorInboxID.feedID else { return .unbound }
        if creator == feedID {
            let own = try inviteSigningKey().publicKey
            return signer.matches(own.uncompressed) ? .ownInvite : .contactMismatch(creator)
        }
        let cardText: String?
        do throws(StoreError) { cardText = try store.contactCardText(of: creator) } catch { throw .store(error) }
        guard let cardText else { return .unbound }
        guard let key = (try? ContactCard(text: cardText))?.invitePublicKey, signer.matches(key.uncompressed) else {
            return .contactMismatch(creator)
        }
        return .knownContact(creator)
    }
}

extension Account.Invites {
    /// Makes a signed invite to a group (committer only: the committer is the one who can add the joiner).
    ///
    /// The payload carries the group id sealed in the conversation token (only this identity opens it), this
    /// identity's feed id as `creator_inbox_id`, the group's current invite tag (set now if the group has none) and
    /// the explosion time; `name`, `description`, `imageURL` and `emoji` are public preview text, unencrypted.
    ///
    /// - Parameters:
    ///   - id: the group (this identity must be its committer).
    ///   - expiresIn: seconds until the invite expires (nil: no expiry).
    ///   - singleUse: the first successful join consumes the invite.
    ///   - name: the conversation's name shown before joining (public).
    ///   - description: its description (public).
    ///   - imageURL: an image address a reader may show (public; Kith's invite page never loads it).
    ///   - emoji: an emoji shown with the name (public).
    ///   - relay: where this identity answers joiners who never met it (``Account/Invites/answerStranger(over:initiator:deadline:)``);
    ///     when given, the invite carries Kith's reach field (its compact card, the server and the join code).
    /// - Throws: ``KithError/group(_:)`` for an unknown or ended group or when not the committer;
    ///   ``KithError/invite(_:)`` for a preview field over Kith's bounds.
    public func create(
        group id: GroupID, expiresIn: Int64? = nil, singleUse: Bool = false, name: String? = nil, description: String? = nil,
        imageURL: String? = nil, emoji: String? = nil, relay: InviteRelay? = nil
    ) async throws(KithError) -> CreatedInvite {
        try await BlockingWork.run { () throws(KithError) in
            if let expiresIn, expiresIn <= 0 { throw .input(.invalid("an invite's lifetime must be positive")) }
            let membership = try account.withGroupStore { access throws(KithError) in try account.activeMembership(id, in: access).1 }
            guard membership.isCommitter else {
                throw .group(.committerOnly(committer: (try? membership.policy.committer) ?? membership.ownFeed))
            }
            var tag = membership.metadata?.inviteTag
            if tag == nil {
                try account.commitMetadataChange(id) { current throws(ConversationMetadataError) in try current.rotatingTag(to: ConversationTag.random()) }
                tag = try account.withGroupStore { access throws(KithError) in try account.activeMembership(id, in: access).1 }.metadata?.inviteTag
            }
            guard let tag else { throw .group(.noMetadata) }
            let key = try account.inviteSigningKey()
            var reach: InviteReach?
            if let relay { reach = try account.strangerReachBlocking(relay) }
            do throws(InviteError) {
                let token = try ConversationToken.seal(conversationID: id.string, creatorKey: key, creatorInboxID: account.invites.inboxID)
                let payload = InvitePayload(
                    conversationToken: token, creatorInboxID: account.invites.inboxID, tag: tag.string, name: name, description: description,
                    imageURL: imageURL, conversationExpiresAtUnix: membership.explodeAt, expiresAtUnix: expiresIn.map { account.clock() + $0 },
                    expiresAfterUse: singleUse, emoji: emoji, reach: reach)
                try payload.checkKithBounds()
                let invite = try SignedInvite(signing: payload, with: key)
                return CreatedInvite(invite: invite, code: InviteCode.encode(invite))
            } catch {
                throw .invite(error)
            }
        }
    }

    /// Revokes every outstanding invite to a group (committer only): one commit gives the group a fresh invite tag,
    /// so the creator refuses every invite that carries the old one. New invites carry the new tag.
    @discardableResult
    public func revoke(group id: GroupID) async throws(KithError) -> GroupSummary {
        try await BlockingWork.run { () throws(KithError) in
            let membership = try account.withGroupStore { access throws(KithError) in try account.activeMembership(id, in: access).1 }
            guard membership.isCommitter else {
                throw .group(.committerOnly(committer: (try? membership.policy.committer) ?? membership.ownFeed))
            }
            try account.commitMetadataChange(id) { current throws(ConversationMetadataError) in
                var fresh = ConversationTag.random()
                while fresh.string == current.tag { fresh = ConversationTag.random() }
                return try current.rotatingTag(to: fresh)
            }
            return try account.groupBlocking(id)
        }
    }

    /// Decodes an invite link or code (Kith's or Convos', current or legacy) and checks what can be checked here:
    /// the signer it recovers, whether that signer is bound to `creator_inbox_id` (XMTP inbox binding, this
    /// identity, or the invite key on a contact's card) and the expiry times.
    ///
    /// - Throws: ``KithError/invite(_:)`` when the text is not an invite or its signature recovers nothing.
    public func inspect(_ text: String) async throws(KithError) -> InviteInspection {
        try await BlockingWork.run { () throws(KithError) in try account.inspectInviteBlocking(text) }
    }
}
