@testable import Kith
import KithAccountFixtures
import KithCanonical
import KithGroups
import KithIdentity
import KithStore
import Synchronization
import Testing

/// Automatic KeyPackage offers (docs/GROUPS.md, "Automatic offers"): a contact is addable to groups after one real sync,
/// with no `keys share`; the offers are bounded per contact, refreshed when used (at most once per interval), withdrawn
/// when the contact is removed or the switch is turned off.
@Suite struct GroupKeyOfferTests {
    /// A clock the test moves (seconds).
    final class MovableClock: Sendable {
        private let seconds = Mutex<Int64>(MetAccounts.now)
        var now: Int64 { seconds.withLock { $0 } }
        func advance(by delta: Int64) { seconds.withLock { $0 += delta } }
    }

    /// Alice and Bob, contacts of each other, on one movable clock.
    static func met(clock: MovableClock) async throws -> (Account, Account) {
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: { clock.now })
        let bob = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)), clock: { clock.now })
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        return (alice, bob)
    }

    /// One real sync session (simulated radio), which must complete on both sides.
    static func sync(_ alice: Account, _ bob: Account) async {
        let outcome = await SyncPair.session(alice, bob)
        #expect(outcome.alice.completed && outcome.bob.completed)
    }

    static func status(of contact: FeedID, at account: Account) async throws -> KeyOfferStatus? {
        try await account.groups.keyOfferStatus().first { $0.contact == contact }
    }

    /// What the store keeps between `account` and `contact` (private halves included).
    static func counts(_ account: Account, _ contact: FeedID) throws -> KeyPackageCounts {
        try account.store.readGroupState { access in try access.keyPackageCounts() }[contact.string] ?? KeyPackageCounts()
    }

    @Test func aContactIsAddableAfterOneSyncWithoutSharing() async throws {
        let (alice, bob) = try await MetAccounts.met()
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 0)
        await Self.sync(alice, bob)
        // Each side offered the other one KeyPackage in that session.
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
        #expect(try await bob.groups.keyPackageCount(of: alice.feedID) == 1)
        #expect(try await Self.status(of: alice.feedID, at: bob)?.automaticOfferOutstanding == true)
        let group = try await alice.groups.create(name: "trip")
        let added = try await alice.groups.add(group.id, contacts: [bob.feedID])
        #expect(added.members.count == 2)
        await Self.sync(alice, bob)
        #expect(try await bob.groups.summary(group.id).status == .active)
        try await alice.groups.send(group.id, text: "saturday?")
        await Self.sync(alice, bob)
        let texts = try await bob.groups.messages(group.id).compactMap { if case .post(let post)? = $0.content { post.body } else { nil } }
        #expect(texts == ["saturday?"])
    }

    @Test func offersAreBoundedPerContactHoweverOftenTheySync() async throws {
        let (alice, bob) = try await MetAccounts.met()
        for _ in 0..<4 { await Self.sync(alice, bob) }
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == GroupStoreAccess.maxAutomaticKeyPackagesPerContact)
        #expect(try Self.counts(bob, alice.feedID).automaticOutstanding == GroupStoreAccess.maxAutomaticKeyPackagesPerContact)
        // Asking directly makes none either while one waits unused.
        #expect(try await bob.groups.offerKeyPackageIfDue(to: alice.feedID) == nil)
    }

    @Test func aUsedOfferIsReplacedAtMostOncePerInterval() async throws {
        let clock = MovableClock()
        let (alice, bob) = try await Self.met(clock: clock)
        await Self.sync(alice, bob)
        let first = try await alice.groups.create(name: "one")
        try await alice.groups.add(first.id, contacts: [bob.feedID])
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 0)
        // Bob joins with the Welcome of this session: his offer is used.
        await Self.sync(alice, bob)
        #expect(try await bob.groups.summary(first.id).status == .active)
        #expect(try Self.counts(bob, alice.feedID).automaticOutstanding == 0)
        // Within the interval no new one goes out, however many sessions run.
        await Self.sync(alice, bob)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 0)
        await #expect(throws: KithError.self) { try await alice.groups.add(try await alice.groups.create(name: "early").id, contacts: [bob.feedID]) }
        clock.advance(by: GroupStoreAccess.automaticKeyOfferInterval)
        await Self.sync(alice, bob)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
        let second = try await alice.groups.create(name: "two")
        try await alice.groups.add(second.id, contacts: [bob.feedID])
        await Self.sync(alice, bob)
        #expect(try await bob.groups.summary(second.id).status == .active)
    }

    @Test func removingAContactWithdrawsTheOffersBothWays() async throws {
        let (alice, bob) = try await MetAccounts.met()
        await Self.sync(alice, bob)
        try await bob.groups.shareKeyPackage(with: alice.feedID)
        #expect(try Self.counts(bob, alice.feedID) == KeyPackageCounts(automaticOutstanding: 1, sharedOutstanding: 1, held: 1))
        // Alice keeps one of Bob's offers aside (as a contact that saw it could), then Bob removes her.
        let kept = try #require(try alice.store.withGroupState { access in try access.takePeerKeyPackage(of: bob.feedID.string) })
        try await bob.contacts.remove(alice.feedID)
        #expect(try Self.counts(bob, alice.feedID) == KeyPackageCounts())
        // They meet again (fresh direct sessions both ways); Alice adds Bob with the KeyPackage he withdrew.
        let aliceCard = try await alice.contacts.card(displayName: "Alice").text
        try await alice.contacts.remove(bob.feedID)
        try await bob.contacts.add(cardText: aliceCard, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await alice.groups.importKeyPackage(Base64URL.encode(kept), from: bob.feedID)
        let group = try await alice.groups.create(name: "after")
        try await alice.groups.add(group.id, contacts: [bob.feedID])
        _ = try await bob.feed.importKnown(lines: try await alice.feed.export())
        // Bob refuses the Welcome: its KeyPackage's private half is gone.
        await #expect(throws: KithError.self) { try await bob.groups.summary(group.id) }
        let refused = try bob.store.readGroupState { access in try access.refusedWelcomes() }
        #expect(refused.count == 1 && refused.first?.reason.contains("names none of this identity's KeyPackages") == true)
    }

    @Test func turnedOffNothingIsOfferedAndWaitingOffersAreWithdrawn() async throws {
        let (alice, bob) = try await MetAccounts.met()
        #expect(try await bob.groups.automaticKeyOffers())
        await Self.sync(alice, bob)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
        #expect(try await bob.groups.setAutomaticKeyOffers(false) == 1)
        #expect(try await bob.groups.automaticKeyOffers() == false)
        #expect(try Self.counts(bob, alice.feedID).automaticOutstanding == 0)
        // Alice still holds the withdrawn one: her add commits, but Bob refuses the Welcome.
        let group = try await alice.groups.create(name: "off")
        try await alice.groups.add(group.id, contacts: [bob.feedID])
        await Self.sync(alice, bob)
        await #expect(throws: KithError.self) { try await bob.groups.summary(group.id) }
        #expect(try bob.store.readGroupState { access in try access.refusedWelcomes() }.count == 1)
        // Off: later sessions offer nothing.
        await Self.sync(alice, bob)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 0)
        #expect(try await Self.status(of: alice.feedID, at: bob)?.automaticOfferOutstanding == false)
        // On again: the next session offers one.
        try await bob.groups.setAutomaticKeyOffers(true)
        await Self.sync(alice, bob)
        #expect(try await alice.groups.keyPackageCount(of: bob.feedID) == 1)
    }
}
