import Crypto
import Foundation
import KithAccountFixtures
import KithFeed
import KithIdentity
import KithSync
import Testing
@testable import Kith

/// Contacts sync directly with a device that just rotated its keys (docs/sync.md, "After a key rotation"): during
/// the grace the rotated side presents its previous dh key and answers IK to either key, and a contact who holds the
/// rotation accepts the previous key; never after `key_compromise`, never after the grace.
@Suite struct RotationSyncGraceTests {
    /// Alice and Bob, contacts of each other, each on a settable clock (at the fixture time).
    static func met() async throws -> (alice: Account, bob: Account, aliceClock: Clock, bobClock: Clock) {
        let aliceClock = Clock(now: MetAccounts.now)
        let bobClock = Clock(now: MetAccounts.now)
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: { aliceClock.now })
        let bob = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)), clock: { bobClock.now })
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        return (alice, bob, aliceClock, bobClock)
    }

    /// A time past the grace of a rotation recorded now (`recorded_at` is the wall clock).
    static var afterTheGrace: Int64 { Int64(Date().timeIntervalSince1970) + Account.rotationSyncGrace + 3600 }

    static func bodies(_ account: Account, of feed: FeedID) async throws -> [String] {
        try await account.feed.timeline(feed: feed).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
    }

    static func key(_ key: Curve25519.KeyAgreement.PublicKey) -> [UInt8] { Array(key.rawRepresentation) }

    /// One IK session (no XX fallback), `initiator` dialing; true when both sides completed.
    static func synced(_ initiator: Account, _ responder: Account) async -> Bool {
        let outcome = await SyncPair.session(initiator, responder)
        return outcome.alice.completed && outcome.bob.completed
    }

    @Test(arguments: [true, false])
    func aContactWhoHasNotSeenTheRotationSyncsWithTheRotatedDeviceAndLearnsIt(bobInitiates: Bool) async throws {
        let (alice, bob, _, _) = try await Self.met()
        try await alice.rotation.rotate(reason: .deviceMigration)
        try await alice.publishing.post("after the move", audience: .contacts)

        #expect(bobInitiates ? await Self.synced(bob, alice) : await Self.synced(alice, bob))
        let rotations = try await bob.rotation.records(feed: alice.feedID)
        #expect(rotations.map(\.verified) == [true] && rotations.first?.reason == "device_migration")
        #expect(try await Self.bodies(bob, of: alice.feedID).contains("after the move"))
        #expect(try bob.store.contact(alice.feedID)?.dhKey == alice.identity.publicKeys.dhKeyString)
    }

    @Test(arguments: [true, false])
    func onceTheContactHoldsTheRotationTheyStillSyncDuringTheGrace(bobInitiates: Bool) async throws {
        let (alice, bob, _, _) = try await Self.met()
        try await alice.rotation.rotate(reason: .deviceMigration)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try bob.store.contact(alice.feedID)?.dhKey == alice.identity.publicKeys.dhKeyString)
        try await alice.publishing.post("still in touch", audience: .contacts)

        // Bob addresses IK to Alice's new key (she answers it as her alternate); Alice presents her previous key
        // (Bob accepts it as the previous key of a contact whose grace is open).
        #expect(bobInitiates ? await Self.synced(bob, alice) : await Self.synced(alice, bob))
        #expect(try await Self.bodies(bob, of: alice.feedID).contains("still in touch"))
    }

    @Test func afterAKeyCompromiseTheOldKeyIsNeitherPresentedNorAccepted() async throws {
        let (alice, bob, _, _) = try await Self.met()
        let oldKey = Self.key(alice.identity.dhKey.publicKey)
        try await alice.rotation.rotate(reason: .keyCompromise)
        let statics = await SyncAgent(account: alice).syncStatics()
        #expect(Self.key(statics.local.publicKey) == Self.key(alice.identity.dhKey.publicKey))
        #expect(statics.alternate.map { Self.key($0.publicKey) } == nil)

        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let source = bob.makeSyncSource()
        #expect(await !source.isSyncPeer(staticKey: oldKey))
        #expect(await source.contact(staticKey: oldKey) == nil)
        #expect(await source.isSyncPeer(staticKey: Self.key(alice.identity.dhKey.publicKey)))
        #expect(await Self.synced(bob, alice))
    }

    @Test func afterTheGraceThePreviousKeyIsRefusedAndTheCurrentOneServes() async throws {
        let (alice, bob, aliceClock, bobClock) = try await Self.met()
        let oldKey = Self.key(alice.identity.dhKey.publicKey)
        try await alice.rotation.rotate(reason: .deviceMigration)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let source = bob.makeSyncSource()
        #expect(await source.isSyncPeer(staticKey: oldKey))  // within the grace

        bobClock.now = Self.afterTheGrace
        #expect(await !source.isSyncPeer(staticKey: oldKey))
        #expect(await source.contact(staticKey: oldKey) == nil)
        #expect(await Self.synced(alice, bob) == false)  // Alice, still in her grace, presents the old key

        aliceClock.now = Self.afterTheGrace
        let statics = await SyncAgent(account: alice).syncStatics()
        #expect(Self.key(statics.local.publicKey) == Self.key(alice.identity.dhKey.publicKey) && statics.alternate.map { Self.key($0.publicKey) } == nil)
        #expect(await Self.synced(alice, bob))
        #expect(await Self.synced(bob, alice))
    }

    @Test func anUnrelatedStaticKeyIsStillRefusedDuringTheGrace() async throws {
        let (alice, bob, _, _) = try await Self.met()
        try await alice.rotation.rotate(reason: .deviceMigration)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let source = bob.makeSyncSource()
        let stranger = Self.key(Curve25519.KeyAgreement.PrivateKey().publicKey)
        #expect(await !source.isSyncPeer(staticKey: stranger))
        #expect(await source.contact(staticKey: stranger) == nil)
        let carol = try MetAccounts.account(0xC0)
        #expect(await SyncPair.session(carol, alice).bob.completed == false)
        #expect(await SyncPair.session(alice, carol).alice.completed == false)
    }
}
