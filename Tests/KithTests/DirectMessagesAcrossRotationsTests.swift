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
        _ = try await to.importContactFeed(lines: try await from.exportFeed(), contact: from.feedID)
    }

    static func texts(_ account: Account, with contact: Account) async throws -> [String] {
        try await account.conversation(with: contact.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body } else { return nil }
        }
    }

    static func expectNoFailures(_ accounts: Account...) async throws {
        for account in accounts {
            let failures = try await account.directFailures()
            #expect(failures.isEmpty, "\(failures)")
        }
    }

    /// The crash harness's known bug: Bob received Alice's first message (his reply chain's
    /// encapsulation targeted her key then), Alice rotated twice, Bob replies after seeing both.
    @Test func aReplyAfterTheContactRotatedTwiceDecrypts() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await alice.sendDirect("before", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await alice.rotateKeys()
        try await alice.rotateKeys()
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("hello after two rotations", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await alice.sendDirect("and back", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        #expect(try await Self.texts(alice, with: bob) == ["before", "hello after two rotations", "and back"])
        #expect(try await Self.texts(bob, with: alice) == ["before", "hello after two rotations", "and back"])
        try await Self.expectNoFailures(alice, bob)
    }

    /// Bob rotates twice with no message in between; Alice, who has not seen either rotation,
    /// keeps writing; Bob reads everything only after the second rotation.
    @Test func messagesWrittenBeforeTheSenderSawTwoRotationsDecrypt() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await alice.sendDirect("a0", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("b0", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        // Alice's next chain starts now, encapsulated to the key Bob has before rotating.
        try await alice.sendDirect("a1", to: bob.feedID)
        try await bob.rotateKeys()
        try await alice.sendDirect("a2", to: bob.feedID)
        try await bob.rotateKeys()
        try await alice.sendDirect("a3", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("b1", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await alice.sendDirect("a4", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        let expected = ["a0", "b0", "a1", "a2", "a3", "b1", "a4"]
        #expect(try await Self.texts(alice, with: bob) == expected)
        #expect(try await Self.texts(bob, with: alice) == expected)
        try await Self.expectNoFailures(alice, bob)
    }

    /// Bob rotates twice with messages both ways between the rotations; Alice writes after each
    /// rotation before she has imported it.
    @Test func messagesBetweenTwoRotationsDecryptOnBothSides() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        try await alice.sendDirect("a0", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("b0", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await bob.rotateKeys()
        try await alice.sendDirect("a1 (rotation unseen)", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("b1", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        try await bob.rotateKeys()
        try await alice.sendDirect("a2 (second rotation unseen)", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await Self.deliver(bob, to: alice)
        try await alice.sendDirect("a3 (both seen)", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        try await bob.sendDirect("b2", to: alice.feedID)
        try await Self.deliver(bob, to: alice)
        let expected = ["a0", "b0", "a1 (rotation unseen)", "b1", "a2 (second rotation unseen)", "a3 (both seen)", "b2"]
        #expect(try await Self.texts(alice, with: bob) == expected)
        #expect(try await Self.texts(bob, with: alice) == expected)
        try await Self.expectNoFailures(alice, bob)
    }

    /// Both sides rotate twice while a conversation goes on, each writing before seeing the
    /// other's rotations.
    @Test func bothSidesRotatingTwiceKeepTalking() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        var expected: [String] = []
        for round in 0..<2 {
            try await alice.sendDirect("alice \(round)", to: bob.feedID)
            try await bob.rotateKeys()
            try await alice.rotateKeys()
            try await Self.deliver(alice, to: bob)
            try await bob.sendDirect("bob \(round)", to: alice.feedID)
            try await Self.deliver(bob, to: alice)
            expected += ["alice \(round)", "bob \(round)"]
        }
        try await alice.sendDirect("last", to: bob.feedID)
        try await Self.deliver(alice, to: bob)
        expected.append("last")
        #expect(try await Self.texts(alice, with: bob) == expected)
        #expect(try await Self.texts(bob, with: alice) == expected)
        try await Self.expectNoFailures(alice, bob)
    }
}
