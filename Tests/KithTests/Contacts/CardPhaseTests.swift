@testable import Kith
import KithAccountFixtures
import KithIdentity
import KithStore
import KithSync
import Testing

/// The full card over the first secure link (docs/FEED-FORMAT.md 11.9): a side that scanned the peer's compact card
/// gets the committed full card in the card phase and completes the contact before the session syncs.
@Suite struct CardPhaseTests {
    /// Alice and Bob met in person and only scanned compact cards (nothing else exchanged).
    static func scanned(both: Bool = true) async throws -> (Account, Account) {
        let alice = try MetAccounts.account(0xA1)
        let bob = try MetAccounts.account(0xB0)
        let aliceCompact = try await alice.contacts.compactCard(for: try await alice.contacts.card(displayName: "Alice"))
        _ = try await bob.contacts.addPending(compactText: aliceCompact.text, name: "Ally")
        let bobCard = try await bob.contacts.card(displayName: "Bob")
        if both {
            _ = try await alice.contacts.addPending(compactText: try await bob.contacts.compactCard(for: bobCard).text)
        } else {
            try await alice.contacts.add(card: bobCard)
        }
        return (alice, bob)
    }

    static func key(_ account: Account) -> [UInt8] { Array(account.identity.publicKeys.dhKey.rawRepresentation) }

    @Test func twoScannedCompactCardsBecomeContactsOverTheirFirstLink() async throws {
        let (alice, bob) = try await Self.scanned()
        #expect(try await alice.contacts.record(bob.feedID) == nil)
        #expect(try await bob.contacts.record(alice.feedID) == nil)
        _ = try await alice.publishing.post("posted before the link: for contacts", audience: .contacts)
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
        let ally = try #require(try await bob.contacts.record(alice.feedID))
        #expect(ally.shownName == "Ally")
        #expect(try await alice.contacts.record(bob.feedID) != nil)
        #expect(try await alice.contacts.pending().isEmpty)
        #expect(try await bob.contacts.pending().isEmpty)
        // The same session synced them as contacts: Bob holds Alice's feed.
        #expect(try bob.store.isFollowed(alice.feedID))
        #expect(outcome.bob.messagesAccepted >= 1)
    }

    @Test func oneSideScanningIsEnough() async throws {
        let (alice, bob) = try await Self.scanned(both: false)
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(try await bob.contacts.record(alice.feedID) != nil)
    }

    @Test func aCommitmentTheHolderNoLongerKeepsLeavesThePendingContact() async throws {
        let alice = try MetAccounts.account(0xA1)
        let bob = try MetAccounts.account(0xB0)
        // A compact card drawn without keeping its full card (as another device of Alice's could have).
        let unkept = try CompactContactCard.create(identity: alice.identity, card: try await alice.contacts.card(displayName: "Alice"))
        _ = try await bob.contacts.addPending(compactText: unkept.text)
        try await alice.contacts.add(card: try await bob.contacts.card(displayName: "Bob"))
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(try await bob.contacts.record(alice.feedID) == nil)
        #expect(try await bob.contacts.pending().map(\.feedID) == [alice.feedID])
        // Nothing was asked of or offered to a peer that is only pending.
        #expect(outcome.bob.messagesAccepted == 0)
    }

    @Test func aCardThatIsNotTheCommittedOneIsRefusedAndStoresNothing() async throws {
        let (alice, bob) = try await Self.scanned()
        let carol = try MetAccounts.account(0xC0)
        let exchange = CardExchange(account: bob)
        let alicePeer = SyncPeer(staticKey: Self.key(alice))
        let opening = await exchange.opening(peer: alicePeer, channelBinding: [])
        let wanted = try #require(try await bob.contacts.pending().first).compactCard.commitment
        #expect(try opening.messages.map { try CardPhaseMessage(decoding: $0) } == [.opening(wanted: wanted)])
        _ = await exchange.received(CardPhaseMessage.opening(wanted: nil).encoded(), peer: alicePeer)
        // Another card of Alice's (not the committed one), then one of Carol's: both refused.
        let newer = CardExchange(account: bob)
        _ = await newer.opening(peer: alicePeer, channelBinding: [])
        _ = await newer.received(CardPhaseMessage.opening(wanted: nil).encoded(), peer: alicePeer)
        let step = await newer.received(CardPhaseMessage.card(try await alice.contacts.card(displayName: "Alice M.").encoded).encoded(), peer: alicePeer)
        #expect(step.finished)
        #expect(await newer.completed == nil)
        let last = await exchange.received(CardPhaseMessage.card(try await carol.contacts.card(displayName: "Carol").encoded).encoded(), peer: alicePeer)
        #expect(last.finished)
        #expect(await exchange.completed == nil)
        #expect(try await bob.contacts.record(alice.feedID) == nil)
        #expect(try await bob.contacts.record(carol.feedID) == nil)
        #expect(try await bob.contacts.pending().count == 1)
    }

    @Test func theCommittedCardOverAnotherLinkKeyIsRefused() async throws {
        let (alice, bob) = try await Self.scanned()
        let pending = try #require(try await bob.contacts.pending().first)
        let kept = try #require(try alice.readGroupStore { try $0.latestInviteCard() })
        // The right card, but the link was opened by someone else's key.
        #expect(await bob.completePendingContact(kept, pending: pending, linkKey: Self.key(try MetAccounts.account(0xC0))) == nil)
        #expect(try await bob.contacts.record(alice.feedID) == nil)
        #expect(await bob.completePendingContact(kept, pending: pending, linkKey: Self.key(alice)) != nil)
    }

    @Test func aPeerThatBreaksThePhaseEndsItWithoutStoringAnything() async throws {
        let (alice, bob) = try await Self.scanned()
        let alicePeer = SyncPeer(staticKey: Self.key(alice))
        for bad in [[0x09], [0x01], CardPhaseMessage.noCard.encoded()] as [[UInt8]] {
            let exchange = CardExchange(account: bob)
            _ = await exchange.opening(peer: alicePeer, channelBinding: [])
            // Garbage, a truncated opening, or an answer before any opening: the phase ends on this side.
            #expect(await exchange.received(bad, peer: alicePeer).finished)
        }
        let twice = CardExchange(account: bob)
        _ = await twice.opening(peer: alicePeer, channelBinding: [])
        _ = await twice.received(CardPhaseMessage.opening(wanted: nil).encoded(), peer: alicePeer)
        #expect(await twice.received(CardPhaseMessage.opening(wanted: nil).encoded(), peer: alicePeer).finished)
        #expect(try await bob.contacts.pending().count == 1)
    }

    @Test func aPendingContactIsFoundByItsLinkKeyAlone() async throws {
        let (alice, bob) = try await Self.scanned()
        let carol = try MetAccounts.account(0xC0)
        _ = try await bob.contacts.addPending(compactText: try await carol.contacts.compactCard(for: try await carol.contacts.card(displayName: "Carol")).text)
        #expect(try bob.store.pendingContact(dhKey: Self.key(alice))?.feedID == alice.feedID)
        #expect(try bob.store.pendingContact(dhKey: Self.key(carol))?.feedID == carol.feedID)
        #expect(try bob.store.pendingContact(dhKey: Self.key(try MetAccounts.account(0xE0))) == nil)
        #expect(try bob.store.pendingContact(dhKey: [1, 2, 3]) == nil)
        // The key is read from the stored bytes without verifying: garbage has none.
        let compact = try #require(try await bob.contacts.pending().first).compactCard
        #expect(CompactContactCard.unverifiedDHKey(of: compact.encoded) == Array(compact.dhKey.rawRepresentation))
        #expect(CompactContactCard.unverifiedDHKey(of: [1, 0, 0]) == nil && CompactContactCard.unverifiedDHKey(of: [9] + compact.encoded.dropFirst()) == nil)
    }

    @Test func aStrangerIsStillRefusedAtTheHandshake() async throws {
        let alice = try MetAccounts.account(0xA1)
        let bob = try MetAccounts.account(0xB0)
        #expect(!(await alice.makeSyncSource().isSyncPeer(staticKey: Self.key(bob))))
        let outcome = await SyncPair.session(alice, bob)
        #expect(!outcome.alice.completed && !outcome.bob.completed)
    }
}
