import Foundation
import GRDB
import Synchronization
import KithFeed
import KithIdentity
@testable import KithStore
import KithSync
import KithTDF
import Testing
@testable import Kith

/// The inner circle end to end: the pool exchange in the side phase of a sync session, one-time
/// messages read exactly once, revocation, exhaustion, and refused messages leaving pools unchanged.
@Suite struct CircleTests {
    static func pools(_ account: Account, with peer: Account) async throws -> OneTimePoolStatus? {
        try await account.circle.status().first { $0.feedID == peer.feedID.string }?.pools
    }

    static func oneTimeTexts(_ reader: Account, from author: Account) async throws -> [String] {
        try await reader.direct.conversation(with: author.feedID).compactMap { message in
            guard message.feedID == author.feedID, message.audience.hasPrefix("otk:"), case .post(let post)? = message.content else { return nil }
            return post.body
        }
    }

    /// Both arm, one session: both hold active pools of the same exchange.
    static func circle(size: Int = 16) async throws -> (Account, Account) {
        let (alice, bob) = try await SyncPair.met()
        try await alice.circle.add(bob.feedID, poolSize: size)
        try await bob.circle.add(alice.feedID, poolSize: size)
        _ = await SyncPair.session(alice, bob)
        return (alice, bob)
    }

    /// Two met accounts arm an exchange of 8 keys and sync over a link cut after `cut` bytes; with the pools each then holds.
    static func exchangeCut(after cut: Int) async throws -> (Account, Account, OneTimePoolStatus?, OneTimePoolStatus?) {
        let (alice, bob) = try await SyncPair.met()
        try await alice.circle.add(bob.feedID, poolSize: 8)
        try await bob.circle.add(alice.feedID, poolSize: 8)
        var configuration = SimulatedBLEConfiguration()
        configuration.disconnectAfterBytes = cut
        _ = await SyncPair.session(alice, bob, configuration: configuration)
        return (alice, bob, try await pools(alice, with: bob), try await pools(bob, with: alice))
    }

    @Test func bothArmAndOneSessionExchangesPoolsThenMessagesAreReadOnce() async throws {
        let (alice, bob) = try await Self.circle()
        let a = try #require(try await Self.pools(alice, with: bob))
        let b = try #require(try await Self.pools(bob, with: alice))
        #expect(a.state == .active && b.state == .active)
        #expect(a.exchangeID == b.exchangeID)
        #expect(a.peerCapacity == 16 && a.ownCapacity == 16 && a.peerRemaining == 16)
        // The side that answered waits for the next session to learn that its commit arrived.
        let settled: (CircleMember) -> Bool = { $0.intent == nil || $0.intent == .confirm(poolSize: 16) }
        #expect(try await alice.circle.status().allSatisfy(settled))
        #expect(try await bob.circle.status().allSatisfy(settled))

        try await alice.circle.send("one", to: bob.feedID)
        try await bob.circle.send("two", to: alice.feedID)
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(try await Self.oneTimeTexts(bob, from: alice) == ["one"])
        #expect(try await Self.oneTimeTexts(alice, from: bob) == ["two"])
        #expect(try await Self.pools(bob, with: alice)?.ownRemaining == 15)
        #expect(try await Self.pools(alice, with: bob)?.peerRemaining == 15)
        // A second pass finds nothing left to open.
        #expect(try await bob.circle.process() == DirectOpenReport())
        // That session opened without a request: the answering side forgot its confirmation.
        #expect(try await alice.circle.status().allSatisfy { $0.intent == nil })
        #expect(try await bob.circle.status().allSatisfy { $0.intent == nil })
    }

    @Test func aLostCommitIsRepairedByTheNextSessionWithoutArmingAgain() async throws {
        // Cut the link at every point from the ack to the end of the side phase; then one plain session (nobody
        // runs `kith circle add` again) must leave both sides active on the same exchange, and both can send.
        var sawLostCommit = false
        for cut in stride(from: 96, through: 3_072, by: 96) {
            let (alice, bob, a, b) = try await Self.exchangeCut(after: cut)
            // Only a cut that left one side active and the other pending lost the commit.
            guard (a?.state == .active && b?.state == .pending) || (a?.state == .pending && b?.state == .active) else { continue }
            sawLostCommit = true
            _ = await SyncPair.session(alice, bob)
            let repairedA = try #require(try await Self.pools(alice, with: bob), "cut \(cut)")
            let repairedB = try #require(try await Self.pools(bob, with: alice), "cut \(cut)")
            #expect(repairedA.state == .active && repairedB.state == .active && repairedA.exchangeID == repairedB.exchangeID, "cut \(cut)")
            try await alice.circle.send("a \(cut)", to: bob.feedID)
            try await bob.circle.send("b \(cut)", to: alice.feedID)
            _ = await SyncPair.session(alice, bob)
            #expect(try await Self.oneTimeTexts(bob, from: alice) == ["a \(cut)"], "cut \(cut)")
            #expect(try await Self.oneTimeTexts(alice, from: bob) == ["b \(cut)"], "cut \(cut)")
        }
        #expect(sawLostCommit, "no cut fell between the responder's commit and its arrival")
    }

    @Test func aContactCannotMakeThisSideGenerateMoreKeysThanItArmed() async throws {
        // Whichever request runs (the smaller exchange id), Alice never holds more than the 8 keys she agreed to.
        for _ in 0..<6 {
            let (alice, bob) = try await SyncPair.met()
            try await alice.circle.add(bob.feedID, poolSize: 8)
            try await bob.circle.add(alice.feedID, poolSize: 64)
            _ = await SyncPair.session(alice, bob)
            let own = try await alice.store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM otk_own_keys") } ?? 0
            #expect(own <= 8)
            if let pools = try await Self.pools(alice, with: bob) { #expect(pools.ownCapacity == 8 && pools.peerCapacity == 8) }
        }
    }

    @Test func aReplayedNanoTDFInANewEnvelopeCannotBeDecrypted() async throws {
        let (alice, bob) = try await Self.circle()
        let first = try await alice.circle.send("once", to: bob.feedID)
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(bob, from: alice) == ["once"])
        // Alice's device (or anyone holding her keys) re-sends the same NanoTDF in a new envelope.
        let bytes = try first.contentBytes()
        let post = try Content.post(Post(body: "once")).canonicalBytes()
        let replay = try alice.appendWithDirectState(plaintext: post, type: "post", audience: .oneTime(bob.feedID)) { _ throws(KithError) in bytes }
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(bob, from: alice) == ["once"])
        #expect(try await bob.direct.failures().contains { $0.messageID == replay.messageID })
        #expect(try await Self.pools(bob, with: alice)?.ownRemaining == 15)
    }

    @Test func onlyOneSideArmedExchangesNothingAndKeepsItsIntent() async throws {
        let (alice, bob) = try await SyncPair.met()
        try await alice.circle.add(bob.feedID, poolSize: 8)
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(try await Self.pools(alice, with: bob) == nil)
        #expect(try await Self.pools(bob, with: alice) == nil)
        #expect(try await alice.circle.status().first?.intent == .exchange(poolSize: 8))
        await #expect(throws: KithError.self) { try await alice.circle.send("x", to: bob.feedID) }
    }

    @Test func anExchangeInterruptedAtAnyByteLeavesNoHalfPoolAndARetryWorks() async throws {
        // Cut the link after every 96 bytes of the first ~3 KB: through the Noise handshake, the
        // request, offer, ack and commit (pools of 8 keys: offer and ack are about 350 bytes each).
        for cut in stride(from: 96, through: 3_072, by: 96) {
            let (alice, bob, a, b) = try await Self.exchangeCut(after: cut)
            // Whoever may send holds keys whose private halves the other side stored for the same exchange.
            if a?.state == .active { #expect(b?.exchangeID == a?.exchangeID, "cut \(cut)") }
            if b?.state == .active { #expect(a?.exchangeID == b?.exchangeID, "cut \(cut)") }
            // Retry: both arm again (an armed intent survives an interruption) and sync.
            try await alice.circle.add(bob.feedID, poolSize: 8)
            try await bob.circle.add(alice.feedID, poolSize: 8)
            _ = await SyncPair.session(alice, bob)
            let retriedA = try #require(try await Self.pools(alice, with: bob), "cut \(cut)")
            let retriedB = try #require(try await Self.pools(bob, with: alice), "cut \(cut)")
            #expect(retriedA.state == .active && retriedB.state == .active && retriedA.exchangeID == retriedB.exchangeID, "cut \(cut)")
            try await alice.circle.send("after cut \(cut)", to: bob.feedID)
            _ = await SyncPair.session(alice, bob)
            #expect(try await Self.oneTimeTexts(bob, from: alice) == ["after cut \(cut)"], "cut \(cut)")
        }
    }

    @Test func aRelayedOneTimeMessageOpensOnceAndOnlyForItsRecipient() async throws {
        let (alice, bob) = try await Self.circle(size: 4)
        let nano = try await alice.circle.sealForRelay("over the relay", to: bob.feedID)
        #expect(try await Self.pools(alice, with: bob)?.peerRemaining == 3)
        // Alice cannot open what she sealed for Bob (the key is in Bob's pool, not hers).
        await #expect(throws: KithError.self) { try await alice.circle.openRelayed(nano) }
        let opened = try await bob.circle.openRelayed(nano)
        #expect(opened == RelayedOneTimeMessage(contact: alice.feedID, post: Post(body: "over the relay")))
        #expect(try await Self.pools(bob, with: alice)?.ownRemaining == 3)
        // A replay finds no key.
        await #expect(throws: KithError.self) { try await bob.circle.openRelayed(nano) }
        // Nothing reached a feed.
        #expect(try await Self.oneTimeTexts(bob, from: alice).isEmpty)
    }

    @Test func relayedNanoTDFsFromStrangersOrTamperedAreRefusedAndKeepTheKey() async throws {
        let (alice, bob) = try await Self.circle(size: 4)
        let carol = try SyncPair.account(0xC4)
        try await bob.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        let genuine = try await alice.circle.sealForRelay("genuine", to: bob.feedID)
        // Claimed by another author (Carol is a contact, but the key is not in her pool): refused.
        var header = genuine.header
        header.kas = try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: carol.feedID.string, identifier: genuine.header.kas.identifier)
        let forged = try NanoTDF(header: header, payload: genuine.payload, signature: genuine.signature)
        await #expect(throws: KithError.self) { try await bob.circle.openRelayed(forged) }
        // A flipped ciphertext byte: refused.
        var bytes = genuine.serialized
        bytes[bytes.count - 20] ^= 0x01
        let tampered = try NanoTDF(parsing: bytes)
        await #expect(throws: KithError.self) { try await bob.circle.openRelayed(tampered) }
        // A one-time message of a feed (its policy names a sequence) carried onto the relay: refused.
        let entry = try await alice.circle.send("in the feed", to: bob.feedID)
        await #expect(throws: KithError.self) { try await bob.circle.openRelayed(try NanoTDF(parsing: try entry.contentBytes())) }
        // The genuine one still opens, once: no refused attempt spent its key.
        #expect(try await bob.circle.openRelayed(genuine).post.body == "genuine")
        // Through the relay router's receiver interface.
        let outcomes = RelayOutcomes()
        let receiver = bob.circle.relayedReceiver { outcomes.add($0) }
        await receiver.received(try await alice.circle.sealForRelay("routed", to: bob.feedID))
        await receiver.rejected(.truncated(field: "header", needed: 3, available: 1, offset: 0))
        let seen = outcomes.all
        #expect(seen.count == 2)
        if case .success(let message)? = seen.first { #expect(message.post.body == "routed") } else { Issue.record("routed message not opened") }
        if case .failure? = seen.last {} else { Issue.record("a malformed NanoTDF must be reported") }
    }

    @Test func aLowPoolIsRenewedAtTheNextSessionWithoutArmingAgain() async throws {
        let (alice, bob) = try await Self.circle(size: 20)
        // A plain session first, so that neither side still holds the answering side's confirmation.
        _ = await SyncPair.session(alice, bob)
        #expect(try await alice.circle.status().first?.intent == nil)
        #expect(try await bob.circle.status().first?.intent == nil)
        let first = try #require(try await Self.pools(alice, with: bob)).exchangeID
        // 19 of Bob's 20 keys used: below 10 % (1 < 2); Alice, who sends, arms a renewal on her own.
        for index in 0..<19 { try await alice.circle.send("m\(index)", to: bob.feedID) }
        #expect(try await alice.circle.status().first?.intent == .exchange(poolSize: 20))
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(bob, from: alice).count == 19)
        // Bob's own pool is low now: he answers Alice's request without arming.
        #expect(try await bob.circle.status().first?.pools?.needsRenewal == true)
        // The next session exchanges fresh pools; nobody ran `kith circle add`.
        _ = await SyncPair.session(alice, bob)
        let a = try #require(try await Self.pools(alice, with: bob))
        let b = try #require(try await Self.pools(bob, with: alice))
        #expect(a.exchangeID != first && a.exchangeID == b.exchangeID)
        #expect(a.state == .active && b.state == .active && a.peerRemaining == 20 && b.ownRemaining == 20 && !a.needsRenewal)
        try await alice.circle.send("fresh", to: bob.feedID)
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(bob, from: alice).last == "fresh")
    }

    @Test func theStoreAndTheExchangeAgreeOnTheLargestPool() {
        #expect(OneTimePoolAccess.maximumPoolSize == PoolExchangeMessage.maximumKeys)
    }

    @Test func aPendingPoolIsActivatedByTheFirstMessageUnderIt() async throws {
        let (alice, bob) = try await Self.circle(size: 4)
        // Make Alice's side pending, as if the commit had been lost.
        let id = try #require(try await Self.pools(alice, with: bob)).exchangeID
        try await alice.store.database.write { db in try db.execute(sql: "UPDATE otk_pools SET state = 'pending'") }
        await #expect(throws: KithError.self) { try await alice.circle.send("not yet", to: bob.feedID) }
        try await bob.circle.send("proof", to: alice.feedID)
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(alice, from: bob) == ["proof"])
        let now = try #require(try await Self.pools(alice, with: bob))
        #expect(now.state == .active && now.exchangeID == id)
        try await alice.circle.send("now yes", to: bob.feedID)
    }

    @Test func twoMessagesSentAtOnceNeverShareAKey() async throws {
        let (alice, bob) = try await Self.circle(size: 16)
        async let first = alice.circle.send("left", to: bob.feedID)
        async let second = alice.circle.send("right", to: bob.feedID)
        let (one, two) = try await (first, second)
        let keyOne = try NanoTDF(parsing: try one.contentBytes()).header.kas.identifier
        let keyTwo = try NanoTDF(parsing: try two.contentBytes()).header.kas.identifier
        #expect(keyOne != keyTwo)
        #expect(try await Self.pools(alice, with: bob)?.peerRemaining == 14)
        _ = await SyncPair.session(alice, bob)
        #expect(Set(try await Self.oneTimeTexts(bob, from: alice)) == ["left", "right"])
    }

    @Test func anExhaustedPoolIsAnErrorNeverAReusedKey() async throws {
        let (alice, bob) = try await Self.circle(size: 2)
        try await alice.circle.send("1", to: bob.feedID)
        try await alice.circle.send("2", to: bob.feedID)
        do {
            try await alice.circle.send("3", to: bob.feedID)
            Issue.record("a third message must not be sent")
        } catch {
            guard case .circle(.exhausted) = error else { Issue.record("\(error)"); return }
        }
        #expect(try await alice.feed.timeline(feed: alice.feedID).filter { $0.audience.hasPrefix("otk:") }.count == 2)
        #expect(try await Self.pools(alice, with: bob)?.needsRenewal == true)
    }

    @Test func revocationDeletesBothPoolsTellsThePeerAndRefusesFurtherMessages() async throws {
        let (alice, bob) = try await Self.circle(size: 8)
        #expect(try await alice.circle.revoke(bob.feedID))
        #expect(try await Self.pools(alice, with: bob) == nil)
        do {
            try await alice.circle.send("no", to: bob.feedID)
            Issue.record("sending after revocation must fail")
        } catch {
            guard case .circle(.noPool) = error else { Issue.record("\(error)"); return }
        }
        let late = try await bob.circle.send("late", to: alice.feedID)
        _ = await SyncPair.session(alice, bob)
        // Bob was told over the link: his pools are gone too, and the late message stays unreadable.
        #expect(try await Self.pools(bob, with: alice) == nil)
        #expect(try await alice.direct.failures().contains { $0.messageID == late.messageID })
        #expect(try await alice.circle.status().isEmpty)
        do {
            try await bob.circle.send("next", to: alice.feedID)
            Issue.record("Bob's next message must be refused")
        } catch {
            guard case .circle(.noPool) = error else { Issue.record("\(error)"); return }
        }
        // A new exchange starts over.
        try await alice.circle.add(bob.feedID, poolSize: 4)
        try await bob.circle.add(alice.feedID, poolSize: 4)
        _ = await SyncPair.session(alice, bob)
        try await bob.circle.send("again", to: alice.feedID)
        _ = await SyncPair.session(alice, bob)
        #expect(try await Self.oneTimeTexts(alice, from: bob) == ["again"])
    }

    @Test func tamperedOrMovedMessagesAreRefusedAndKeepTheKey() async throws {
        let (alice, bob) = try await Self.circle(size: 4)
        let local = alice.feedID
        let peer = bob.feedID
        let post = try Content.post(Post(body: "x")).canonicalBytes()
        // A NanoTDF with one payload byte flipped.
        let tampered = try alice.appendMaking(type: "post", audience: .oneTime(peer)) { slot throws(KithError) in
            let taken: OneTimePoolAccess.TakenKey
            do throws(OneTimePoolError) { taken = try slot.oneTimePools.takeNextPeerKey(peer: peer.string) } catch { throw .circle(error) }
            var bytes = try Account.sealOneTime(post, to: taken.publicKey, from: local, to: peer, sequence: slot.sequence)
            bytes[bytes.count - 1] ^= 0x01
            return (bytes, post)
        }
        // A NanoTDF whose policy names another sequence (moved from another envelope).
        let moved = try alice.appendMaking(type: "post", audience: .oneTime(peer)) { slot throws(KithError) in
            let taken: OneTimePoolAccess.TakenKey
            do throws(OneTimePoolError) { taken = try slot.oneTimePools.takeNextPeerKey(peer: peer.string) } catch { throw .circle(error) }
            return (try Account.sealOneTime(post, to: taken.publicKey, from: local, to: peer, sequence: slot.sequence + 7), post)
        }
        _ = await SyncPair.session(alice, bob)
        let failures = try await bob.direct.failures()
        #expect(failures.contains { $0.messageID == tampered.messageID })
        #expect(failures.contains { $0.messageID == moved.messageID })
        // Neither burned a key: Bob still holds all four private halves.
        #expect(try await Self.pools(bob, with: alice)?.ownRemaining == 4)
    }

    @Test func theOtkAudienceIsAdditive() throws {
        let id = try SyncPair.account(0xA1).feedID
        #expect(try Audience("otk:" + id.string) == .oneTime(id))
        #expect(Audience.oneTime(id).description == "otk:" + id.string)
        // Not followed by a feed id: kept as an unknown audience, never refused.
        #expect(try Audience("otk:not-a-feed") == .unknown("otk:not-a-feed"))
    }
}

/// What a relayed one-time receiver handed over, for assertions.
final class RelayOutcomes: Sendable {
    private let outcomes = Mutex<[Result<RelayedOneTimeMessage, KithError>]>([])
    func add(_ outcome: Result<RelayedOneTimeMessage, KithError>) { outcomes.withLock { $0.append(outcome) } }
    var all: [Result<RelayedOneTimeMessage, KithError>] { outcomes.withLock { $0 } }
}
