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
    static func deliver(_ from: Account, to: Account, contact: String) throws {
        _ = try to.importContactFeed(lines: try from.exportFeed(), contact: contact)
    }

    static func body(_ account: Account, _ id: MessageID) throws -> String? {
        if case .post(let post)? = try account.store.message(id)?.content { return post.body }
        return nil
    }

    @Test func aRotatedFeedKeepsItsIdAndItsContactsKeepReading() throws {
        let pair = try ContactsAccountTests.pair()
        var alice = pair.0
        let bob = pair.1
        let before = try alice.post("before rotating", audience: .contacts)
        let oldKey = alice.identity.publicKeys.identityKeyString
        alice = try alice.rotateKeys(reason: "scheduled_rotation")
        #expect(alice.identity.isRotated)
        #expect(alice.identity.publicKeys.identityKeyString != oldKey)
        #expect(alice.feedID == FeedID(identityKey: alice.identity.originalIdentityKey))
        let after = try alice.post("after rotating", audience: .contacts)
        try Self.deliver(alice, to: bob, contact: "Alice")
        #expect(try Self.body(bob, before.messageID) == "before rotating")
        #expect(try Self.body(bob, after.messageID) == "after rotating")
        #expect(try bob.keyRotations(feed: alice.feedID).map(\.verified) == [true])
        #expect(try bob.store.contact(alice.feedID)?.identityKey == alice.identity.publicKeys.identityKeyString)
        // Bob's reply uses Alice's new dh key; she reads it.
        let reply = try bob.post("welcome to your new keys", audience: .contacts)
        try Self.deliver(bob, to: alice, contact: "Bob")
        #expect(try Self.body(alice, reply.messageID) == "welcome to your new keys")
    }

    @Test func twoRotationsInARow() throws {
        let pair = try ContactsAccountTests.pair()
        var alice = pair.0
        let bob = pair.1
        var posts: [Envelope] = []
        for round in 0..<2 {
            posts.append(try alice.post("generation \(round)", audience: .contacts))
            alice = try alice.rotateKeys()
        }
        posts.append(try alice.post("generation 2", audience: .contacts))
        try Self.deliver(alice, to: bob, contact: "Alice")
        #expect(try posts.map { try Self.body(bob, $0.messageID) } == ["generation 0", "generation 1", "generation 2"])
        #expect(try bob.keyRotations(feed: alice.feedID).map(\.verified) == [true, true])
    }

    @Test func postsWrittenBeforeTheContactSawTheRotationStayReadable() throws {
        let pair = try ContactsAccountTests.pair()
        var alice = pair.0
        let bob = pair.1
        alice = try alice.rotateKeys()
        // Bob has not imported the rotation yet: he encrypts with Alice's previous dh key.
        let stale = try bob.post("written to your old key", audience: .contacts)
        try Self.deliver(bob, to: alice, contact: "Bob")
        #expect(try Self.body(alice, stale.messageID) == "written to your old key")
    }

    @Test func directMessagesContinueAcrossARotation() throws {
        let pair = try ContactsAccountTests.pair()
        var alice = pair.0
        let bob = pair.1
        try alice.sendDirect("before", to: "Bob")
        try Self.deliver(alice, to: bob, contact: "Alice")
        alice = try alice.rotateKeys()
        try alice.sendDirect("after", to: "Bob")
        try Self.deliver(alice, to: bob, contact: "Alice")
        try bob.sendDirect("reply", to: "Alice")
        try Self.deliver(bob, to: alice, contact: "Bob")
        let texts = try bob.conversation(with: "Alice").compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
        #expect(texts == ["before", "after", "reply"])
        #expect(try alice.directFailures().isEmpty && bob.directFailures().isEmpty)
    }

    @Test func unknownReasonsAreRefused() throws {
        let alice = try ContactsAccountTests.account(0xA1)
        #expect(throws: KithError.self) { try alice.rotateKeys(reason: "because") }
    }

    @Test func rotationIsDueAfterThirtyDays() throws {
        let start: Int64 = 1_790_000_000
        let clock = Clock(now: start)
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: { clock.now })
        #expect(try alice.keyRotationDue() == false)
        try alice.post("first", audience: .selfOnly)
        clock.now = start + Account.keyRotationInterval
        #expect(try alice.keyRotationDue())
        let rotated = try alice.rotateKeys()
        #expect(try rotated.keyRotationDue() == false)
    }

    @Test func aHomeReopensWithItsRotatedKeysAndFinishesAnInterruptedRotation() throws {
        let home = AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-rotate-\(UUID().uuidString)"))
        let created = try Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        let rotated = try created.rotateKeys()
        let reopened = try Account.open(home: home, passphrase: { "p" })
        #expect(reopened.identity.publicKeys.identityKeyString == rotated.identity.publicKeys.identityKeyString)
        #expect(try Account.publicKeys(home: home)["identity_key"]?.stringValue == rotated.identity.publicKeys.identityKeyString)
        try reopened.post("signed with the rotated key", audience: .selfOnly)

        // A rotation cut before its announcement was stored is discarded on open.
        let stray = RotatedKeySeeds(current: Seed.generate(), previous: nil)
        try Account.writeSealed(stray, deviceSeed: reopened.deviceSeed, to: home.pendingRotatedKeysURL)
        let afterCrash = try Account.open(home: home, passphrase: { "p" })
        #expect(afterCrash.identity.publicKeys.identityKeyString == rotated.identity.publicKeys.identityKeyString)
        #expect(!FileManager.default.fileExists(atPath: home.pendingRotatedKeysURL.path))

        // A rotation cut after its announcement was stored is finished on open.
        let next = try afterCrash.rotateKeys()
        try FileManager.default.removeItem(at: home.rotatedKeysURL)
        try Account.writeSealed(try #require(next.keySeeds), deviceSeed: next.deviceSeed, to: home.pendingRotatedKeysURL)
        try Account.writeSealed(try #require(rotated.keySeeds), deviceSeed: next.deviceSeed, to: home.rotatedKeysURL)
        let finished = try Account.open(home: home, passphrase: { "p" })
        #expect(finished.identity.publicKeys.identityKeyString == next.identity.publicKeys.identityKeyString)
        try finished.post("and with the next one", audience: .selfOnly)
        #expect(try finished.timeline().count >= 4)
    }

    @Test func sealedKeySeedsRejectTamperingAndOtherIdentities() throws {
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
