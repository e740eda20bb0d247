import Foundation
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore
import KithSync

/// Answering joiners who never met this identity: the creator's side of the invite exchange (docs/INVITES.md,
/// "Joiners who never met the creator").
///
/// The requester is an **invite-scoped peer**: its card and keys live in memory for this one exchange, it is not
/// made a contact, and the only thing it can reach is the join ladder; it becomes a group member only by passing
/// every check of ``InviteJoinLadder``, and its Welcome goes back over the same link.
extension Account {
    /// The refusal budget key of a link's static key (a stranger not identified by a card yet).
    static func linkRequester(_ key: [UInt8]) -> String { "link:" + Base64URL.encode(key) }

    private func refuseLink(_ key: [UInt8]) {
        let now = clock()
        inviteJoinBudget.withLock { $0.recordRefusal(of: Self.linkRequester(key), now: now) }
    }

    /// The request: the requester's card (verified, its dh key the link's key, not this identity), its budget, the
    /// ladder, then the commit. Returns the outcome and the message to send back, if any (refusals before the
    /// signature check get none, as over direct messages).
    func answerStrangerBlocking(
        code: String, card bytes: [UInt8], keyPackage: [UInt8], linkKey: [UInt8]
    ) throws(KithError) -> (StrangerServeOutcome, InviteExchangeMessage?) {
        let now = clock()
        guard let card = try? ContactCard.decode(bytes), ConstantTime.equals(Array(card.publicKeys.dhKey.rawRepresentation), linkKey),
              card.feedID != feedID else {
            refuseLink(linkKey)
            return (.refused(.addFailed("the requester's card does not verify or does not name the link's key")), nil)
        }
        let requester = card.feedID.string
        guard inviteJoinBudget.withLock({ $0.admits(requester, now: now) }) else { return (.refused(.rateLimited), nil) }
        let ladder = InviteJoinLadder(key: try inviteSigningKey(), inboxID: invites.inboxID)
        do throws(InviteJoinRefusal) {
            // A member asking again proved it holds the member's keys (its card names the link's key): its Welcome was
            // lost on the way, so it is readmitted (its old leaf replaced) rather than refused. A single-use invite it
            // consumed itself still admits it; one consumed by anyone else does not.
            let admission = try ladder.check(
                code: code, handled: false, now: now, group: { self.ladderView(of: $0, requester: requester) },
                consumed: { id in
                    do throws(KithError) {
                        guard let consumer = try self.readGroupStore({ try $0.inviteConsumer(id) }) else { return false }
                        return consumer != requester
                    } catch {
                        return true
                    }
                },
                readmitsMembers: true)
            let (welcome, tree) = try admitStranger(card, keyPackage: keyPackage, admission: admission)
            // Each readmission is a commit in this identity's feed and a new epoch for every member: it spends the
            // requester's budget like a refusal, so a member asking again and again is held to 5 an hour.
            if admission.readmission { inviteJoinBudget.withLock { $0.recordRefusal(of: requester, now: now) } }
            guard let group = try? GroupID(admission.groupID) else { throw .groupNotFound }
            // The new member's group messages are entries of its feed: follow it (members need not be contacts). A
            // failure here does not undo the admission; the next commit's processing follows every member anyway.
            try? store.follow(identityKey: card.feedKey)
            return (.admitted(group: group, member: card.feedID), .welcome(welcome, tree: tree))
        } catch {
            inviteJoinBudget.withLock {
                $0.recordRefusal(of: requester, now: now)
                $0.recordRefusal(of: Self.linkRequester(linkKey), now: now)
            }
            return (.refused(error), error.replyKind.map { InviteExchangeMessage.refusal(error: $0, reason: error.description) })
        }
    }

    /// Adds `owner` with its KeyPackage in one commit (a single-use invite consumed in the same transaction) and takes
    /// the Welcome made for it, with the ratchet tree when it travels apart, in that transaction: it goes back over the
    /// link, never as a direct message (`owner` is not a contact).
    ///
    /// The requester's checked card is kept as a group peer in that transaction (docs/INVITES.md, "Group peers"), so
    /// the two can sync directly while they share the group.
    private func admitStranger(
        _ card: ContactCard, keyPackage bytes: [UInt8], admission: InviteJoinLadder.Admission
    ) throws(InviteJoinRefusal) -> (welcome: [UInt8], tree: [UInt8]) {
        let owner = card.feedID
        guard let id = try? GroupID(admission.groupID), let keyPackage = try? GroupKeyPackage.decode(bytes),
              (try? GroupKeyPackage.check(keyPackage, owner: owner)) != nil else {
            throw .addFailed("the request's KeyPackage is not the requester's")
        }
        var handed: (welcome: [UInt8], tree: [UInt8])?
        do throws(KithError) {
            // The Welcome is taken in the commit's own transaction, never queued for a direct message.
            try commitToGroup(id, handOver: { joiner, welcome, tree in
                guard joiner == owner else { return false }
                handed = (welcome, tree ?? [])
                return true
            }) { membership, access throws(KithError) in
                if admission.singleUse, !admission.readmission {
                    try self.groupStoreCall(access.consumeInvite(admission.inviteID, group: admission.groupID, requester: owner.string))
                }
                try self.groupStoreCall(access.saveGroupPeer(owner, dhKey: Base64URL.encode(card.publicKeys.dhKey.rawRepresentation), card: card.encoded))
                do throws(GroupError) {
                    return try membership.commit(adding: [keyPackage], removing: admission.readmission ? [owner] : [])
                } catch {
                    throw .group(error)
                }
            }
        } catch {
            throw .addFailed(error.description)
        }
        guard let handed else { throw .addFailed("the commit made no Welcome for the requester") }
        return handed
    }

    // MARK: Invites for strangers

    /// The reach field of an invite for strangers: the compact form of the card kept for invites and, when given,
    /// the relay where this identity answers.
    func strangerReachBlocking(_ relay: InviteRelay?) throws(KithError) -> InviteReach {
        let card = try inviteCardBlocking()
        let compact: CompactContactCard
        do throws(CompactContactCardError) { compact = try CompactContactCard.create(identity: identity, card: card) } catch {
            throw .contacts(.compactCard(error))
        }
        return InviteReach(compactCardBytes: compact.encoded, server: relay?.server, joinCode: relay?.joinCode)
    }

    /// The own full card that strangers' invites commit to: the newest kept one while it still names this identity's
    /// keys and invite key and is younger than half the card age limit, else a fresh one, kept (`invite_cards`).
    func inviteCardBlocking() throws(KithError) -> ContactCard {
        let inviteKey = try inviteSigningKey().publicKey
        let keys = identity.publicKeys
        if let bytes = try readGroupStore({ try $0.latestInviteCard() }), let card = try? ContactCard.decode(bytes),
           card.publicKeys.identityKey.rawRepresentation == keys.identityKey.rawRepresentation,
           card.publicKeys.dhKey.rawRepresentation == keys.dhKey.rawRepresentation, card.invitePublicKey == inviteKey,
           (try? card.checkAge(now: clock(), maxAge: ContactCardLimits.defaultMaxAge / 2)) != nil {
            return card
        }
        let card = try contactCardBlocking(displayName: nil)
        try withGroupStore { access throws(KithError) in
            try self.groupStoreCall(access.saveInviteCard(card.encoded, commitment: Base64URL.encode(CompactContactCard.commitment(to: card))))
        }
        return card
    }
}

extension Account.Invites {
    /// Answers one stranger over `transport` (a relay room, a TCP connection…): the Noise handshake (any static key
    /// that has not used up its refusal budget), the full card the invite's compact card commits to, then the
    /// joiner's request through the ladder and one commit adding it, or a refusal.
    ///
    /// Bounded before any cryptography by the exchange gate (2 at once, 30 per minute) and the per-key and
    /// per-requester refusal budget (5 per hour); the whole exchange must end within `deadline`, else the link is
    /// closed.
    ///
    /// - Throws: ``KithError/sync(_:)`` when the link fails or closes; ``KithError/input(_:)`` for a malformed or
    ///   unexpected message.
    public func answerStranger(
        over transport: any SyncTransport, initiator: Bool, deadline: Duration = .seconds(30)
    ) async throws(KithError) -> StrangerServeOutcome {
        let started = account.clock()
        guard account.strangerExchangeGate.withLock({ $0.begin(now: started) }) else {
            await transport.close()
            return .busy
        }
        defer { account.strangerExchangeGate.withLock { $0.end() } }
        let configuration = SecureLinkConfiguration(localStatic: account.identity.dhKey) { [self] key in
            account.inviteJoinBudget.withLock { $0.admits(Account.linkRequester(key), now: started) }
        }
        // The deadline covers the handshake too: a stranger who never finishes it must not hold a slot.
        let watchdog = Task {
            try? await Task.sleep(for: deadline)
            await transport.close()
        }
        defer { watchdog.cancel() }
        let link: SecureLink
        do throws(SecureLinkError) {
            link = initiator
                ? try await SecureLink.connect(over: transport, configuration: configuration, responderStaticKey: nil)
                : try await SecureLink.accept(over: transport, configuration: configuration)
        } catch {
            throw .sync(.link(error))
        }
        defer { Task { await link.close() } }
        let channel = InviteExchangeChannel(link: link, maximumIncomingBytes: InviteExchangeMessage.maxJoinerMessageBytes)
        guard case .cardRequest(let commitment) = try await channel.receive() else {
            account.refuseLink(link.peerStaticKey)
            throw .input(.invalid(InviteExchangeError.unexpected("first message (want a card request)").description))
        }
        let card = try await BlockingWork.run { () throws(KithError) in
            try account.readGroupStore { access in try access.inviteCard(commitment: Base64URL.encode(commitment)) }
        }
        guard let card else {
            account.refuseLink(link.peerStaticKey)
            try await channel.send(.refusal(error: "generic_failure", reason: "the creator no longer keeps the card this invite names"))
            return .refused(.addFailed("no kept card has the requested commitment"))
        }
        try await channel.send(.creatorCard(card))
        guard case let .joinRequest(code, requesterCard, keyPackage) = try await channel.receive() else {
            account.refuseLink(link.peerStaticKey)
            throw .input(.invalid(InviteExchangeError.unexpected("second message (want a join request)").description))
        }
        let peerKey = link.peerStaticKey
        let (outcome, reply) = try await BlockingWork.run { () throws(KithError) in
            try account.answerStrangerBlocking(code: code, card: requesterCard, keyPackage: keyPackage, linkKey: peerKey)
        }
        if let reply {
            try await channel.send(reply)
            // Wait briefly for the joiner to hang up, so the answer is not cut off in flight; a joiner that
            // stays on the line must not keep the slot until the deadline.
            let hangUp = Task {
                try? await Task.sleep(for: .seconds(2))
                await transport.close()
            }
            _ = try? await channel.receive()
            hangUp.cancel()
        }
        return outcome
    }
}
