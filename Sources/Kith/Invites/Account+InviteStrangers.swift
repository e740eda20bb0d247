import Foundation
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithSync

/// Joining by invite without having met the creator: the joiner's side of the invite exchange (docs/INVITES.md,
/// "Joiners who never met the creator").
extension Account {
    /// The creator's full card, checked: it decodes and verifies, matches the compact card's commitment and keys,
    /// and carries the invite key that signed the invite.
    static func checkCreatorCard(_ bytes: [UInt8], for invite: StrangerInvite) throws(KithError) -> ContactCard {
        let card: ContactCard
        do throws(ContactCardError) { card = try ContactCard.decode(bytes) } catch { throw .invite(.reachMismatch("the creator's full card: \(error.description)")) }
        do throws(CompactContactCardError) {
            _ = try invite.creatorCard.complete(with: card)
        } catch {
            throw .invite(.reachMismatch("the full card is not the one the invite's compact card commits to (\(error.description))"))
        }
        guard let key = card.invitePublicKey, invite.inspection.signer.matches(key.uncompressed) else {
            throw .invite(.reachMismatch("the invite was not signed by the invite key on the creator's card"))
        }
        return card
    }
}

extension Account.Invites {
    /// Checks an invite for a stranger join before anything is sent: it reads, has not expired, keeps Kith's bounds,
    /// names another identity, and carries Kith's reach field whose compact card verifies and whose feed id is the
    /// invite's `creator_inbox_id` (constant time). The signer is bound to that card later, when the full card
    /// arrives over the link (``Account/Invites/joinAsStranger(_:over:initiator:deadline:)``).
    ///
    /// - Throws: ``KithError/invite(_:)`` for an unreadable, expired, over-bound invite, one without a reach field
    ///   (`InviteError.invalidReach`) or whose card belongs to another feed (`InviteError.reachMismatch`).
    public func prepareStrangerJoin(_ text: String) async throws(KithError) -> StrangerInvite {
        try await BlockingWork.run { () throws(KithError) in
            let inspection = try account.inspectInviteBlocking(text)
            let payload = inspection.invite.payload
            let code: String
            let card: CompactContactCard
            do throws(InviteError) {
                try payload.checkNotExpired(nowUnix: account.clock())
                try payload.checkKithBounds()
                code = try InviteLink(parsing: text).code
                guard let reach = payload.reach else { throw .invalidReach("the invite carries no way to reach its creator (no card)") }
                card = try reach.compactCard()
                guard ConstantTime.equals(card.feedID.rawBytes, payload.creatorInboxID.bytes) else {
                    throw .reachMismatch("the card's feed id is not the invite's creator_inbox_id")
                }
            } catch {
                throw .invite(error)
            }
            guard card.feedID != account.feedID else { throw .input(.invalid("this is an invite of this identity's own")) }
            return StrangerInvite(
                inspection: inspection, code: code, creatorCard: card, server: payload.reach?.server, joinCode: payload.reach?.joinCode)
        }
    }

    /// Runs the joiner's side of the invite exchange over `transport` (a relay room, a TCP connection…):
    ///
    /// 1. the Noise handshake, allowing only the dh key of the invite's compact card (IK when `initiator`);
    /// 2. asks for the full card the compact card commits to, checks the commitment, the card's signatures and that
    ///    its invite key is the key that signed the invite;
    /// 3. records the request (`invite_requests_sent`, pending) and sends the invite code, this identity's card and a
    ///    KeyPackage made for the creator;
    /// 4. joins from the Welcome that comes back only when its group's tag is the invite's tag and the request is
    ///    still pending (a Welcome to anything else is refused and changes nothing), or records the refusal.
    ///
    /// The whole exchange must end within `deadline`, else the link is closed (a creator that stalls costs a bounded
    /// wait).
    ///
    /// - Throws: ``KithError/invite(_:)`` with `InviteError.reachMismatch` for a forged or mismatched card;
    ///   ``KithError/sync(_:)`` when the link fails; ``KithError/input(_:)`` for a malformed or unexpected answer;
    ///   ``KithError/group(_:)`` when the Welcome is refused.
    public func joinAsStranger(
        _ invite: StrangerInvite, over transport: any SyncTransport, initiator: Bool, deadline: Duration = .seconds(60)
    ) async throws(KithError) -> StrangerJoinOutcome {
        let creatorDH = invite.creatorCard.dhKey.rawRepresentation
        let configuration = SecureLinkConfiguration(localStatic: account.identity.dhKey, acceptedPatterns: [.ik, .xx]) { key in
            ConstantTime.equals(key, Array(creatorDH))
        }
        let link: SecureLink
        do throws(SecureLinkError) {
            link = initiator
                ? try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: Array(creatorDH))
                : try await SecureLink.accept(over: transport, configuration: configuration)
        } catch {
            throw .sync(.link(error))
        }
        let watchdog = Task {
            try? await Task.sleep(for: deadline)
            await link.close()
        }
        defer {
            watchdog.cancel()
            Task { await link.close() }
        }
        let channel = InviteExchangeChannel(link: link)
        try await channel.send(.cardRequest(commitment: invite.creatorCard.commitment))
        let fullCard: ContactCard
        switch try await channel.receive() {
        case .creatorCard(let bytes):
            fullCard = try Account.checkCreatorCard(bytes, for: invite)
        case .refusal(let error, let reason):
            return .refused(error: error, reason: reason)
        default:
            throw .input(.invalid(InviteExchangeError.unexpected("answer to the card request").description))
        }
        let payload = invite.inspection.invite.payload
        let (ownCard, keyPackage) = try await BlockingWork.run { () throws(KithError) in
            let card = try account.contactCardBlocking(displayName: nil)
            let keyPackage = try account.makeKeyPackageBlocking(recipient: fullCard.feedID)
            try account.withGroupStore { access throws(KithError) in
                try account.groupStoreCall(access.recordJoinRequest(
                    creator: fullCard.feedID.string, tag: payload.tag, inviteID: InviteJoinLadder.inviteID(of: invite.inspection.invite)))
            }
            return (card.encoded, keyPackage)
        }
        try await channel.send(.joinRequest(code: invite.code, card: ownCard, keyPackage: keyPackage))
        switch try await channel.receive() {
        case let .welcome(welcome, tree):
            let id = try await BlockingWork.run { () throws(KithError) in
                try account.joinFromInviteExchange(welcome: welcome, tree: tree, creator: fullCard.feedID, tag: payload.tag, creatorCard: fullCard)
            }
            return .joined(id)
        case let .refusal(error, reason):
            try await BlockingWork.run { () throws(KithError) in
                try account.withGroupStore { access throws(KithError) in
                    try account.groupStoreCall(access.settleJoinRequest(creator: fullCard.feedID.string, tag: payload.tag, status: "refused"))
                }
            }
            return .refused(error: error, reason: reason)
        default:
            throw .input(.invalid(InviteExchangeError.unexpected("answer to the join request").description))
        }
    }
}
