import Kith
import Foundation
import KithFeed
import KithStore

extension Demo {
    /// Step 8: a direct conversation (hybrid X3DH + ML-KEM-768 + Double Ratchet) whose messages
    /// reach Bob out of order.
    static func directStep(alice: Account, bob: Account, summary: inout Summary, say: (String) -> Void) async throws(KithError) {
        let handover = try await bob.direct.prekeyHandover(for: alice.feedID, count: 20)
        try await alice.direct.importPrekeyHandover(handover.text, from: bob.feedID)
        say("Still together, Bob hands Alice 20 one-time prekeys made just for her (\(handover.encoded.count) bytes, signed; NFC or a file).")
        let lines = ["Want to get coffee on Friday?", "The place near the station.", "Say 10 o'clock?"]
        for line in lines { try await alice.direct.send(line, to: bob.feedID) }
        say("Alice sends Bob \(lines.count) direct messages (audience direct:…): the first runs the hybrid X3DH with one of his prekeys,")
        say("every message has its own key from the Double Ratchet; a batch of Alice's own prekeys for Bob rides along.")
        let export = try await alice.feed.export()
        let reversed = Array(export.reversed())
        _ = try await bob.feed.importFromContact(lines: reversed, contact: alice.feedID)
        let received = try await bob.direct.conversation(with: alice.feedID).compactMap { message -> String? in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
        summary.directReadInOrder = received == lines
        say("Bob receives Alice's feed newest first (out of order): the chain holds them until the gap fills, then each decrypts once:")
        for text in received { say("  Alice → Bob: \(text)") }
        try await bob.direct.send("Friday 10 works. See you!", to: alice.feedID)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        if case .post(let reply)? = try await alice.direct.conversation(with: bob.feedID).last?.content {
            summary.directReplyRead = true
            say("  Bob → Alice: \(reply.body)   (his reply ratchets the keys forward: earlier keys are gone)")
        }
        let carol = try Account.inMemory()
        _ = try await carol.feed.importVerified(lines: export, identityKey: alice.identity.publicKeys.identityKey)
        let opaque = try await carol.feed.timeline(feed: alice.feedID).filter { $0.audience.hasPrefix("direct:") && $0.content == nil }.count
        say("Carol stores and can relay Alice's \(opaque) direct messages, but cannot read any of them.")
    }
}
