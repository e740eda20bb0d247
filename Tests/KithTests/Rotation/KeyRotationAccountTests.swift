import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Synchronization
import Testing
@testable import Kith

/// Rotating one's own keys: same feed id, verified announcement, contacts keep reading.
@Suite struct KeyRotationAccountTests {
    static func deliver(_ from: Account, to: Account, contact: FeedID) async throws {
        _ = try await to.feed.importFromContact(lines: try await from.feed.export(), contact: contact)
    }

    static func body(_ account: Account, _ id: MessageID) throws -> String? {
        if case .post(let post)? = try account.store.message(id)?.content { return post.body }
        return nil
    }

    @Test func aRotatedFeedKeepsItsIdAndItsContactsKeepReading() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        let before = try await alice.publishing.post("before rotating", audience: .contacts)
        let oldKey = alice.identity.publicKeys.identityKeyString
        try await alice.rotation.rotate(reason: .scheduledRotation)
        #expect(alice.identity.isRotated)
        #expect(alice.identity.publicKeys.identityKeyString != oldKey)
        #expect(alice.feedID == FeedID(identityKey: alice.identity.originalIdentityKey))
        let after = try await alice.publishing.post("after rotating", audience: .contacts)
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        #expect(try Self.body(bob, before.messageID) == "before rotating")
        #expect(try Self.body(bob, after.messageID) == "after rotating")
        #expect(try await bob.rotation.records(feed: alice.feedID).map(\.verified) == [true])
        #expect(try bob.store.contact(alice.feedID)?.identityKey == alice.identity.publicKeys.identityKeyString)
        // Bob's reply uses Alice's new dh key; she reads it.
        let reply = try await bob.publishing.post("welcome to your new keys", audience: .contacts)
        try await Self.deliver(bob, to: alice, contact: bob.feedID)
        #expect(try Self.body(alice, reply.messageID) == "welcome to your new keys")
    }

    @Test func twoRotationsInARow() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        var posts: [Envelope] = []
        for round in 0..<2 {
            posts.append(try await alice.publishing.post("generation \(round)", audience: .contacts))
            try await alice.rotation.rotate()
        }
        posts.append(try await alice.publishing.post("generation 2", audience: .contacts))
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        #expect(try posts.map { try Self.body(bob, $0.messageID) } == ["generation 0", "generation 1", "generation 2"])
        #expect(try await bob.rotation.records(feed: alice.feedID).map(\.verified) == [true, true])
    }

    @Test func postsWrittenBeforeTheContactSawTheRotationStayReadable() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        try await alice.rotation.rotate()
        // Bob has not imported the rotation yet: he encrypts with Alice's previous dh key.
        let stale = try await bob.publishing.post("written to your old key", audience: .contacts)
        try await Self.deliver(bob, to: alice, contact: bob.feedID)
        #expect(try Self.body(alice, stale.messageID) == "written to your old key")
    }

    @Test func directMessagesContinueAcrossARotation() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        try await alice.direct.send("before", to: bob.feedID)
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        try await alice.rotation.rotate()
        try await alice.direct.send("after", to: bob.feedID)
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        try await bob.direct.send("reply", to: alice.feedID)
        try await Self.deliver(bob, to: alice, contact: bob.feedID)
        let texts = try await bob.direct.conversation(with: alice.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
        #expect(texts == ["before", "after", "reply"])
        #expect(try await alice.direct.failures().isEmpty)
        #expect(try await bob.direct.failures().isEmpty)
    }

    /// The first direct message, written before a rotation, arrives in the same import as the
    /// rotation: it is opened with the keys in force when it was written.
    @Test func aDirectMessageBeforeARotationOpensWhenBothArriveTogether() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await alice.direct.send("before", to: bob.feedID)
        try await alice.rotation.rotate()
        try await alice.direct.send("after", to: bob.feedID)
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        let texts = try await bob.direct.conversation(with: alice.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
        #expect(texts == ["before", "after"])
        #expect(try await bob.direct.failures().isEmpty)
    }

    @Test func theReasonsAreTheSpecsReasons() {
        // Unknown reasons cannot be expressed any more; the enum is exactly the spec's list.
        #expect(KeyRotationReason.allCases.map(\.rawValue).sorted() == KeyRotation.reasons.sorted())
    }

    @Test func theRotatedAccountIsTheSameObjectForEveryTask() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        let oldKey = alice.identity.publicKeys.identityKeyString
        async let rotation: Void = alice.rotation.rotate(reason: .keyCompromise)
        async let before: [StoredMessage] = alice.feed.timeline()
        _ = try await (rotation, before)
        #expect(alice.identity.publicKeys.identityKeyString != oldKey)
        // Posts from other tasks after the rotation sign with the new key; Bob verifies the chain.
        let posts = try await withThrowingTaskGroup(of: Envelope.self) { group in
            for index in 0..<4 { group.addTask { try await alice.publishing.post("after \(index)", audience: .contacts) } }
            return try await group.reduce(into: [Envelope]()) { $0.append($1) }
        }
        try await Self.deliver(alice, to: bob, contact: alice.feedID)
        for post in posts { #expect(try Self.body(bob, post.messageID)?.hasPrefix("after") == true) }
        #expect(try await bob.rotation.records(feed: alice.feedID).map(\.reason) == ["key_compromise"])
    }

    @Test func rotationIsDueAfterThirtyDays() async throws {
        let start: Int64 = 1_790_000_000
        let clock = Clock(now: start)
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: { clock.now })
        #expect(try await alice.rotation.isDue() == false)
        try await alice.publishing.post("first", audience: .selfOnly)
        clock.now = start + Account.keyRotationInterval
        #expect(try await alice.rotation.isDue())
        try await alice.rotation.rotate()
        #expect(try await alice.rotation.isDue() == false)
    }

    @Test func aHomeReopensWithItsRotatedKeysAndFinishesAnInterruptedRotation() async throws {
        let home = AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-rotate-\(UUID().uuidString)"))
        let created = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        try await created.rotation.rotate()
        let rotatedKey = created.identity.publicKeys.identityKeyString
        let rotatedSeeds = try #require(created.keySeeds)
        let reopened = try await Account.open(home: home, passphrase: { "p" })
        #expect(reopened.identity.publicKeys.identityKeyString == rotatedKey)
        #expect(try await Account.publicKeys(home: home)["identity_key"]?.stringValue == rotatedKey)
        try await reopened.publishing.post("signed with the rotated key", audience: .selfOnly)

        // A rotation cut before its announcement was stored is discarded on open.
        let stray = RotatedKeySeeds(current: Seed.generate(), previous: nil)
        try Account.writeSealed(stray, deviceSeed: reopened.deviceSeed, to: home.pendingRotatedKeysURL)
        let afterCrash = try await Account.open(home: home, passphrase: { "p" })
        #expect(afterCrash.identity.publicKeys.identityKeyString == rotatedKey)
        #expect(!FileManager.default.fileExists(atPath: home.pendingRotatedKeysURL.path))

        // A rotation cut after its announcement was stored is finished on open.
        try await afterCrash.rotation.rotate()
        try FileManager.default.removeItem(at: home.rotatedKeysURL)
        try Account.writeSealed(try #require(afterCrash.keySeeds), deviceSeed: afterCrash.deviceSeed, to: home.pendingRotatedKeysURL)
        try Account.writeSealed(rotatedSeeds, deviceSeed: afterCrash.deviceSeed, to: home.rotatedKeysURL)
        let finished = try await Account.open(home: home, passphrase: { "p" })
        #expect(finished.identity.publicKeys.identityKeyString == afterCrash.identity.publicKeys.identityKeyString)
        try await finished.publishing.post("and with the next one", audience: .selfOnly)
        #expect(try await finished.feed.timeline().count >= 4)
    }

    /// Found by the crash harness (Interop/crash, `rotate-keys`): a kill after the rotated key seeds
    /// were committed and before public.json and the contacts keys were rewritten left `kith id`
    /// naming the old key for good, since no pending file was left to finish.
    @Test func aRotationCutAfterItsKeysWereCommittedIsFinishedOnOpen() async throws {
        let home = AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-rotate-\(UUID().uuidString)"))
        let created = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let before = try Data(contentsOf: home.publicKeysURL)
        try await created.rotation.rotate()
        let rotatedKey = created.identity.publicKeys.identityKeyString
        // The state a kill between commitPendingRotation and finishRotation leaves behind.
        try before.write(to: home.publicKeysURL)
        #expect(try await Account.publicKeys(home: home)["identity_key"]?.stringValue != rotatedKey)

        let reopened = try await Account.open(home: home, passphrase: { "p" })
        #expect(reopened.identity.publicKeys.identityKeyString == rotatedKey)
        #expect(try await Account.publicKeys(home: home)["identity_key"]?.stringValue == rotatedKey)
    }

    @Test func sealedKeySeedsRejectTamperingAndOtherIdentities() async throws {
        let device = Seed.generate()
        let seeds = RotatedKeySeeds(current: Seed.generate(), previous: Seed.generate())
        var sealed = try seeds.sealed(deviceSeed: device)
        #expect(throws: IdentityError.self) { try RotatedKeySeeds.open(sealed, deviceSeed: Seed.generate(), path: "x") }
        sealed[20] ^= 1
        #expect(throws: IdentityError.self) { try RotatedKeySeeds.open(sealed, deviceSeed: device, path: "x") }
        #expect(throws: IdentityError.self) { try RotatedKeySeeds.open([1, 2, 3], deviceSeed: device, path: "x") }
    }
}

/// A settable clock for tests.
final class Clock: Sendable {
    private let value: Mutex<Int64>
    init(now: Int64) { value = Mutex(now) }
    var now: Int64 {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }
}
