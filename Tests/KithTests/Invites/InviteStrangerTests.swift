@testable import Kith
import Foundation
import KithAccountFixtures
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithSync
import Synchronization
import Testing

/// Joining by invite without having met the creator (docs/INVITES.md, "Joiners who never met the creator"): the
/// reach field, the invite exchange over a secure link, the invite-scoped peer, the ladder with strangers, Welcome
/// gating, and every rejection.
@Suite struct InviteStrangerTests {
    static let relay = InviteRelay(server: "http://127.0.0.1:7460", joinCode: "abcdefghij0123456789")

    /// Both sides of one exchange over a simulated link (the joiner initiates, as the second member of a room may).
    static func exchange(
        creator: Account, joiner: Account, invite: StrangerInvite, joinerInitiates: Bool = true
    ) async -> (creator: Result<StrangerServeOutcome, KithError>, joiner: Result<StrangerJoinOutcome, KithError>) {
        let (central, peripheral) = SimulatedBLELink.makePair()
        async let creatorSide: Result<StrangerServeOutcome, KithError> = {
            do throws(KithError) {
                return .success(try await creator.invites.answerStranger(over: joinerInitiates ? peripheral : central, initiator: !joinerInitiates, deadline: .seconds(120)))
            } catch {
                return .failure(error)
            }
        }()
        let joinerSide: Result<StrangerJoinOutcome, KithError>
        do throws(KithError) {
            joinerSide = .success(try await joiner.invites.joinAsStranger(invite, over: joinerInitiates ? central : peripheral, initiator: joinerInitiates))
        } catch {
            joinerSide = .failure(error)
        }
        await central.close()
        return (await creatorSide, joinerSide)
    }

    static func strangers() throws -> (alice: Account, dana: Account, erin: Account) {
        (try MetAccounts.account(0xA1), try MetAccounts.account(0xD0), try MetAccounts.account(0xE0))
    }

    @Test func aStrangerJoinsWithASingleUseInviteAndASecondStrangerIsRefused() async throws {
        let (alice, dana, erin) = try Self.strangers()
        let group = try await alice.groups.create(name: "book club")
        let made = try await alice.invites.create(group: group.id, singleUse: true, name: "Book club", relay: Self.relay)
        let reach = try #require(made.invite.payload.reach)
        #expect(reach.server == Self.relay.server && reach.joinCode == Self.relay.joinCode)
        #expect(try reach.compactCard().feedID == alice.feedID)

        let invite = try await dana.invites.prepareStrangerJoin(made.url)
        #expect(invite.creatorCard.feedID == alice.feedID)
        let first = await Self.exchange(creator: alice, joiner: dana, invite: invite)
        #expect(try first.joiner.get() == .joined(group.id))
        #expect(try first.creator.get() == .admitted(group: group.id, member: dana.feedID))
        #expect(try await dana.groups.summary(group.id).status == .active)
        #expect(try await alice.groups.summary(group.id).members.contains(dana.feedID))
        #expect(try await dana.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "joined")
        // An invite-scoped peer: neither side made the other a contact.
        #expect(try await alice.contacts.record(dana.feedID) == nil)
        #expect(try await dana.contacts.record(alice.feedID) == nil)
        // Nothing was queued for Dana as a direct message.
        #expect(try alice.readGroupStore { try $0.queuedWelcomes() }.isEmpty)

        // Dana follows the members' feeds and reads the group after a delivery of Alice's feed.
        try await alice.groups.send(group.id, text: "welcome")
        _ = try await dana.feed.importKnown(lines: try await alice.feed.export())
        #expect(try await dana.groups.messages(group.id).contains { if case .post(let post)? = $0.content { post.body == "welcome" } else { false } })
        // And Alice, who follows the new member's feed, reads Dana's answer.
        try await dana.groups.send(group.id, text: "thanks")
        _ = try await alice.feed.importKnown(lines: try await dana.feed.export())
        #expect(try await alice.groups.messages(group.id).contains { if case .post(let post)? = $0.content { post.body == "thanks" } else { false } })

        let before = try await alice.groups.summary(group.id)
        let second = await Self.exchange(creator: alice, joiner: erin, invite: try await erin.invites.prepareStrangerJoin(made.url))
        #expect(try second.joiner.get() == .refused(error: "invite_used", reason: InviteJoinRefusal.alreadyUsed.description))
        #expect(try second.creator.get() == .refused(.alreadyUsed))
        let after = try await alice.groups.summary(group.id)
        #expect(after.epoch == before.epoch && after.members.sorted() == before.members.sorted())
        #expect(try await erin.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "refused")
        await #expect(throws: KithError.self) { try await erin.groups.summary(group.id) }
    }

    /// The link broke after Alice's commit: Dana is a member at Alice's but never got her Welcome. Asking again with
    /// the same (single-use) invite readmits her in one commit that replaces her old leaf; anyone else is still refused.
    @Test func aMemberWhoseWelcomeWasLostIsReadmittedWithTheSameInvite() async throws {
        let (alice, dana, erin) = try Self.strangers()
        let group = try await alice.groups.create(name: "book club")
        let made = try await alice.invites.create(group: group.id, singleUse: true, relay: Self.relay)
        let invite = try await dana.invites.prepareStrangerJoin(made.url)
        // Alice admits Dana; the Welcome never reaches her (the link broke after the commit).
        let danaCard = try await dana.contacts.card(displayName: "Dana")
        let lostKeyPackage = try dana.makeKeyPackageBlocking(recipient: alice.feedID)
        let danaKey = Array(dana.identity.publicKeys.dhKey.rawRepresentation)
        let (admitted, lost) = try alice.answerStrangerBlocking(code: made.code, card: danaCard.encoded, keyPackage: lostKeyPackage, linkKey: danaKey)
        #expect(admitted == .admitted(group: group.id, member: dana.feedID))
        guard case .welcome? = lost else {
            Issue.record("expected a Welcome, got \(String(describing: lost))")
            return
        }
        let afterLoss = try await alice.groups.summary(group.id)
        await #expect(throws: KithError.self) { try await dana.groups.summary(group.id) }

        // Dana asks again: readmitted, one member entry, one more epoch; the invite stays consumed by her.
        let retry = await Self.exchange(creator: alice, joiner: dana, invite: invite)
        #expect(try retry.joiner.get() == .joined(group.id))
        #expect(try retry.creator.get() == .admitted(group: group.id, member: dana.feedID))
        let readmitted = try await alice.groups.summary(group.id)
        #expect(readmitted.epoch == afterLoss.epoch + 1)
        #expect(readmitted.members.sorted() == [alice.feedID, dana.feedID].sorted())
        #expect(try await dana.groups.summary(group.id).status == .active)
        #expect(try alice.readGroupStore { try $0.inviteConsumer(InviteJoinLadder.inviteID(of: made.invite)) } == dana.feedID.string)

        // The group works for her: she reads what Alice sends next.
        try await alice.groups.send(group.id, text: "you made it")
        _ = try await dana.feed.importKnown(lines: try await alice.feed.export())
        #expect(try await dana.groups.messages(group.id).contains { if case .post(let post)? = $0.content { post.body == "you made it" } else { false } })

        // The single-use invite still refuses everyone else.
        let other = await Self.exchange(creator: alice, joiner: erin, invite: try await erin.invites.prepareStrangerJoin(made.url))
        #expect(try other.creator.get() == .refused(.alreadyUsed))
        #expect(try await alice.groups.summary(group.id).members.count == 2)
    }

    @Test func readmissionsSpendTheRequestersBudget() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let danaCard = try await dana.contacts.card(displayName: "Dana")
        let danaKey = Array(dana.identity.publicKeys.dhKey.rawRepresentation)
        func ask() throws -> StrangerServeOutcome {
            try alice.answerStrangerBlocking(
                code: made.code, card: danaCard.encoded, keyPackage: try dana.makeKeyPackageBlocking(recipient: alice.feedID), linkKey: danaKey
            ).0
        }
        #expect(try ask() == .admitted(group: group.id, member: dana.feedID))
        // Asking again readmits (a lost Welcome), but each readmission is a commit: five an hour, then dropped.
        for _ in 0..<5 { #expect(try ask() == .admitted(group: group.id, member: dana.feedID)) }
        let epoch = try await alice.groups.summary(group.id).epoch
        #expect(try ask() == .refused(.rateLimited))
        #expect(try await alice.groups.summary(group.id).epoch == epoch)
    }

    @Test func theCreatorMayBeTheLinkInitiator() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(made.url), joinerInitiates: false)
        #expect(try outcome.joiner.get() == .joined(group.id))
    }

    @Test func aTreeTooLargeForTheWelcomeTravelsOverTheLink() async throws {
        let (creator, dana, _) = try Self.strangers()
        let alice = try creator.withTestingHooks(AccountTestingHooks(groupTreeInBandLimit: 0))
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(made.url))
        #expect(try outcome.joiner.get() == .joined(group.id))
        #expect(try await dana.groups.summary(group.id).status == .active)
    }

    @Test func aRevokedInviteIsRefusedAndAFreshOneWorks() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let old = try await alice.invites.create(group: group.id, relay: Self.relay)
        try await alice.invites.revoke(group: group.id)
        let refused = await Self.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(old.url))
        #expect(try refused.creator.get() == .refused(.tagMismatch))
        #expect(try refused.joiner.get() == .refused(error: "conversation_expired", reason: InviteJoinRefusal.tagMismatch.description))
        let fresh = try await alice.invites.create(group: group.id, relay: Self.relay)
        #expect(try await Self.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(fresh.url)).joiner.get() == .joined(group.id))
    }

    @Test func anExplodedGroupRefusesStrangers() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let invite = try await dana.invites.prepareStrangerJoin(made.url)
        try await alice.groups.explode(group.id)
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: invite)
        #expect(try outcome.creator.get() == .refused(.conversationExploded))
        #expect(try await dana.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == "refused")
    }

    @Test func anExpiredInviteIsRefusedByTheJoinerAndByTheCreator() async throws {
        let time = Mutex<Int64>(MetAccounts.now)
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: { time.withLock { $0 } })
        let dana = try MetAccounts.account(0xD0)
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, expiresIn: 60, relay: Self.relay)
        let invite = try await dana.invites.prepareStrangerJoin(made.url)
        time.withLock { $0 += 3_600 }
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: invite)
        guard case .success(.refused(.inviteExpired)) = outcome.creator else {
            Issue.record("the creator must refuse an expired invite, got \(outcome.creator)")
            return
        }
        // Refused before the signature check: no answer, the link just closes.
        #expect(throws: KithError.self) { try outcome.joiner.get() }
        let expiredForJoiner = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xE1, count: 32)), clock: { MetAccounts.now + 3_600 })
        await #expect(throws: KithError.self) { try await expiredForJoiner.invites.prepareStrangerJoin(made.url) }
    }

    // MARK: The card and the binding

    @Test func anInviteWithoutReachOrWithAForgedCardIsRefusedBeforeAnythingIsSent() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let plain = try await alice.invites.create(group: group.id)
        do {
            _ = try await dana.invites.prepareStrangerJoin(plain.url)
            Issue.record("an invite without a reach field cannot be used by a stranger")
        } catch KithError.invite(.invalidReach) {
        } catch {
            Issue.record("expected invalidReach, got \(error)")
        }
        // A card whose signature does not hold (one byte of its name flipped), re-signed invite by Alice's key.
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        var payload = made.invite.payload
        var card = try #require(payload.reach).compactCardBytes
        card[card.count - 70] ^= 0x01
        payload.reach?.compactCardBytes = card
        let forged = try SignedInvite(signing: payload, with: try alice.inviteSigningKey())
        await #expect(throws: KithError.self) { try await dana.invites.prepareStrangerJoin(InviteCode.encode(forged)) }
        do {
            _ = try await dana.invites.prepareStrangerJoin(InviteCode.encode(forged))
        } catch KithError.invite(.invalidReach) {
        } catch {
            Issue.record("expected invalidReach, got \(error)")
        }
    }

    @Test func aCardOfAnotherFeedThanTheCreatorIsRefused() async throws {
        let (alice, dana, erin) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        // Erin's compact card in Alice's invite, signed by Alice's key: card and inbox id disagree.
        var payload = made.invite.payload
        let erinCard = try await erin.contacts.card(displayName: "Erin")
        payload.reach?.compactCardBytes = try await erin.contacts.compactCard(for: erinCard).encoded
        let forged = try SignedInvite(signing: payload, with: try alice.inviteSigningKey())
        do {
            _ = try await dana.invites.prepareStrangerJoin(InviteCode.encode(forged))
            Issue.record("a card of another feed must be refused")
        } catch KithError.invite(.reachMismatch) {
        } catch {
            Issue.record("expected reachMismatch, got \(error)")
        }
    }

    @Test func anInviteNotSignedByTheCardsInviteKeyIsRefusedOverTheLink() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        // Same payload (Alice's card, Alice's inbox id) signed by another secp256k1 key.
        let other = try InviteSigningKey(seed: try Seed(bytes: [UInt8](repeating: 0x77, count: 32)))
        let forged = try SignedInvite(signing: made.invite.payload, with: other)
        let invite = try await dana.invites.prepareStrangerJoin(InviteCode.encode(forged))
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: invite)
        guard case .failure(.invite(.reachMismatch)) = outcome.joiner else {
            Issue.record("expected reachMismatch, got \(outcome.joiner)")
            return
        }
        #expect(try await alice.groups.summary(group.id).members == [alice.feedID])
        #expect(try await dana.invites.joinRequestStatus(creator: alice.feedID, tag: made.invite.payload.tag) == nil)
    }

    @Test func aFullCardThatDoesNotMatchTheCommitmentIsRefused() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let invite = try await dana.invites.prepareStrangerJoin(made.url)
        // Another card of Alice's (another name, so other bytes): a valid card, but not the committed one.
        let other = try await alice.contacts.card(displayName: "Not the committed card")
        #expect(throws: KithError.self) { try Account.checkCreatorCard(other.encoded, for: invite) }
        let kept = try #require(try alice.readGroupStore { try $0.latestInviteCard() })
        #expect(try Account.checkCreatorCard(kept, for: invite).feedID == alice.feedID)
        #expect(throws: KithError.self) { try Account.checkCreatorCard(Array(kept.dropLast()), for: invite) }
    }

    @Test func invitesReuseOneKeptCard() async throws {
        let (alice, _, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let first = try await alice.invites.create(group: group.id, relay: Self.relay)
        let second = try await alice.invites.create(group: group.id, relay: Self.relay)
        #expect(first.invite.payload.reach?.compactCardBytes == second.invite.payload.reach?.compactCardBytes)
    }

    // MARK: The creator's bounds

    @Test func aRequesterCardThatIsNotTheLinksKeyIsRefused() async throws {
        let (alice, dana, erin) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        let danaCard = try await dana.contacts.card(displayName: "Dana")
        let keyPackage = try dana.makeKeyPackageBlocking(recipient: alice.feedID)
        // Erin's link key with Dana's card.
        let erinKey = Array(erin.identity.publicKeys.dhKey.rawRepresentation)
        let (outcome, reply) = try alice.answerStrangerBlocking(code: made.code, card: danaCard.encoded, keyPackage: keyPackage, linkKey: erinKey)
        guard case .refused(.addFailed) = outcome else {
            Issue.record("expected addFailed, got \(outcome)")
            return
        }
        #expect(reply == nil)
        #expect(try await alice.groups.summary(group.id).members == [alice.feedID])
        // A KeyPackage of another feed than the card's.
        let erinKeyPackage = try erin.makeKeyPackageBlocking(recipient: alice.feedID)
        let danaKey = Array(dana.identity.publicKeys.dhKey.rawRepresentation)
        let (other, _) = try alice.answerStrangerBlocking(code: made.code, card: danaCard.encoded, keyPackage: erinKeyPackage, linkKey: danaKey)
        guard case .refused(.addFailed) = other else {
            Issue.record("expected addFailed, got \(other)")
            return
        }
        #expect(try await alice.groups.summary(group.id).members == [alice.feedID])
        #expect(try alice.readGroupStore { try $0.consumedInviteCount() } == 0)
    }

    @Test func aRequesterRefusedTooOftenIsDroppedBeforeAnyCryptography() async throws {
        let (alice, dana, _) = try Self.strangers()
        let group = try await alice.groups.create(name: "g")
        let made = try await alice.invites.create(group: group.id, relay: Self.relay)
        try await alice.invites.revoke(group: group.id)
        let danaCard = try await dana.contacts.card(displayName: "Dana")
        let keyPackage = try dana.makeKeyPackageBlocking(recipient: alice.feedID)
        let danaKey = Array(dana.identity.publicKeys.dhKey.rawRepresentation)
        for _ in 0..<5 {
            let (outcome, _) = try alice.answerStrangerBlocking(code: made.code, card: danaCard.encoded, keyPackage: keyPackage, linkKey: danaKey)
            #expect(outcome == .refused(.tagMismatch))
        }
        let (dropped, reply) = try alice.answerStrangerBlocking(code: made.code, card: danaCard.encoded, keyPackage: keyPackage, linkKey: danaKey)
        #expect(dropped == .refused(.rateLimited) && reply == nil)
        // Its link key is refused at the handshake too.
        let outcome = await Self.exchange(creator: alice, joiner: dana, invite: try await dana.invites.prepareStrangerJoin(made.url))
        guard case .failure(.sync) = outcome.creator else {
            Issue.record("expected a refused handshake, got \(outcome.creator)")
            return
        }
    }

    @Test func aFloodOfStrangersIsTurnedAwayBeforeAnyHandshake() async throws {
        let (alice, _, _) = try Self.strangers()
        var busy = 0
        for _ in 0..<40 {
            let (central, peripheral) = SimulatedBLELink.makePair()
            await central.close()
            if case .busy? = try? await alice.invites.answerStranger(over: peripheral, initiator: false, deadline: .seconds(1)) { busy += 1 }
        }
        // 30 starts per minute, then every further one is turned away unread.
        #expect(busy == 10)
        #expect(alice.strangerExchangeGate.withLock { $0.running } == 0)
    }

    @Test func aStrangerWhoNeverFinishesTheHandshakeLosesItsSlotAtTheDeadline() async throws {
        let (alice, _, _) = try Self.strangers()
        // The stranger's side stays open and silent: no handshake message ever comes.
        let (silent, peripheral) = SimulatedBLELink.makePair()
        let started = ContinuousClock.now
        let outcome = try? await alice.invites.answerStranger(over: peripheral, initiator: false, deadline: .seconds(1))
        #expect(outcome == nil)
        // Not a timing test: without the deadline the call never returns. The bound only has to be far above a
        // loaded CI machine's scheduling delays (24 s seen with the whole suite running on 2 cores).
        #expect(ContinuousClock.now - started < .seconds(120))
        #expect(alice.strangerExchangeGate.withLock { $0.running } == 0)
        await silent.close()
    }

    // MARK: Welcome gating

    @Test func aWelcomeWithoutAPendingRequestOrForAnotherTagIsRefusedAndStoresNothing() async throws {
        let (alice, dana, _) = try Self.strangers()
        let wanted = try await alice.groups.create(name: "wanted")
        let other = try await alice.groups.create(name: "other")
        let wantedInvite = try await alice.invites.create(group: wanted.id, relay: Self.relay)
        _ = try await alice.invites.create(group: other.id, relay: Self.relay)
        let wantedTag = wantedInvite.invite.payload.tag
        // Alice adds Dana's KeyPackage to the OTHER group and hands that Welcome over.
        let keyPackage = try dana.makeKeyPackageBlocking(recipient: alice.feedID)
        let decoded = try GroupKeyPackage.decode(keyPackage)
        try alice.commitToGroup(other.id) { membership, _ throws(KithError) in
            do throws(GroupError) { return try membership.commit(adding: [decoded]) } catch { throw .group(error) }
        }
        let queued = try #require(try alice.readGroupStore { try $0.queuedWelcomes() }.first { $0.recipient == dana.feedID.string })
        // No request sent at all: refused.
        #expect(throws: KithError.self) {
            try dana.joinFromInviteExchange(welcome: queued.message, tree: [], creator: alice.feedID, tag: wantedTag)
        }
        // A request for the wanted group's tag: a Welcome to the other group is still refused.
        try dana.withGroupStore { access throws(KithError) in
            try dana.groupStoreCall(access.recordJoinRequest(creator: alice.feedID.string, tag: wantedTag, inviteID: "x"))
        }
        #expect(throws: KithError.self) {
            try dana.joinFromInviteExchange(welcome: queued.message, tree: [], creator: alice.feedID, tag: wantedTag)
        }
        await #expect(throws: KithError.self) { try await dana.groups.summary(other.id) }
        #expect(try await dana.invites.joinRequestStatus(creator: alice.feedID, tag: wantedTag) == "pending")
    }
}
