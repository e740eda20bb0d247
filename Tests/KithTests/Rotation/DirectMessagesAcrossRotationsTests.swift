import Foundation
import KithFeed
import Testing
@testable import Kith

/// Direct messages keep decrypting when a contact rotates keys several times: the sender
/// encapsulates each new sending chain to the contact's key current when it sends (not the key
/// it had when the last reply arrived), and the recipient still opens messages written to its
/// retained earlier generations (docs/FEED-FORMAT.md 12.9; found by `run_crash.py --known-bugs`).
@Suite struct DirectMessagesAcrossRotationsTests {
    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importFromContact(lines: try await from.feed.export(), contact: from.feedID)
    }

    static func texts(_ account: Account, with contact: Account) async throws -> [String] {
        try await account.direct.conversation(with: contact.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
    }

    /// `from` writes `text` to `to`; with `delivered`, `to` imports `from`'s feed right after.
    static func say(_ text: String, from: Account, to: Account, delivered: Bool = true) async throws {
        try await from.direct.send(text, to: to.feedID)
        if delivered { try await deliver(from, to: to) }
    }

    /// Both sides read exactly `expected` in their conversation, and no direct message failed.
    static func expectBothRead(_ expected: [String], _ alice: Account, _ bob: Account) async throws {
        #expect(try await texts(alice, with: bob) == expected)
        #expect(try await texts(bob, with: alice) == expected)
        for account in [alice, bob] {
            let failures = try await account.direct.failures()
            #expect(failures.isEmpty, "\(failures)")
        }
    }

    /// The crash harness's known bug: Bob received Alice's first message (his reply chain's
    /// encapsulation targeted her key then), Alice rotated twice, Bob replies after seeing the
    /// rotations. After four rotations no retired generation holds that key any more: the reply
    /// opens only because its chain encapsulates to Alice's current key.
    @Test(arguments: [2, 4]) func aReplyAfterTheContactRotatedSeveralTimesDecrypts(rotations: Int) async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await Self.say("before", from: alice, to: bob)
        for _ in 0..<rotations { try await alice.rotation.rotate() }
        try await Self.deliver(alice, to: bob)
        try await Self.say("hello after the rotations", from: bob, to: alice)
        try await Self.say("and back", from: alice, to: bob)
        try await Self.expectBothRead(["before", "hello after the rotations", "and back"], alice, bob)
    }

    /// Bob rotates twice with no message in between; Alice, who has not seen either rotation,
    /// keeps writing; Bob reads everything only after the second rotation.
    @Test func messagesWrittenBeforeTheSenderSawTwoRotationsDecrypt() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await Self.say("a0", from: alice, to: bob)
        try await Self.say("b0", from: bob, to: alice)
        // Alice's next chain starts now, encapsulated to the key Bob has before rotating.
        try await Self.say("a1", from: alice, to: bob, delivered: false)
        try await bob.rotation.rotate()
        try await Self.say("a2", from: alice, to: bob, delivered: false)
        try await bob.rotation.rotate()
        try await Self.say("a3", from: alice, to: bob)
        try await Self.say("b1", from: bob, to: alice)
        try await Self.say("a4", from: alice, to: bob)
        try await Self.expectBothRead(["a0", "b0", "a1", "a2", "a3", "b1", "a4"], alice, bob)
    }

    /// Bob rotates twice with messages both ways between the rotations; Alice writes after each
    /// rotation before she has imported it.
    @Test func messagesBetweenTwoRotationsDecryptOnBothSides() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await Self.say("a0", from: alice, to: bob)
        try await Self.say("b0", from: bob, to: alice)
        try await bob.rotation.rotate()
        try await Self.say("a1 (rotation unseen)", from: alice, to: bob)
        try await Self.say("b1", from: bob, to: alice)
        try await bob.rotation.rotate()
        try await Self.say("a2 (second rotation unseen)", from: alice, to: bob)
        try await Self.deliver(bob, to: alice)
        try await Self.say("a3 (both seen)", from: alice, to: bob)
        try await Self.say("b2", from: bob, to: alice)
        try await Self.expectBothRead(
            ["a0", "b0", "a1 (rotation unseen)", "b1", "a2 (second rotation unseen)", "a3 (both seen)", "b2"], alice, bob
        )
    }

    /// Both sides rotate twice while a conversation goes on, each writing before seeing the
    /// other's rotations.
    @Test func bothSidesRotatingTwiceKeepTalking() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        var expected: [String] = []
        for round in 0..<2 {
            try await Self.say("alice \(round)", from: alice, to: bob, delivered: false)
            try await bob.rotation.rotate()
            try await alice.rotation.rotate()
            try await Self.deliver(alice, to: bob)
            try await Self.say("bob \(round)", from: bob, to: alice)
            expected += ["alice \(round)", "bob \(round)"]
        }
        try await Self.say("last", from: alice, to: bob)
        try await Self.expectBothRead(expected + ["last"], alice, bob)
    }
}
