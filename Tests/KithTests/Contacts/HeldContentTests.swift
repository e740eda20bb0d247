import GRDB
import KithCanonical
import KithFeed
import Testing
@testable import Kith
@testable import KithStore

/// Messages held before their author became a contact are opened when the card is added, by the
/// rule of ingest (docs/FEED-FORMAT.md section 7 rules 8-9): unknown types are never decrypted.
@Suite struct HeldContentTests {
    @Test func unknownTypesStayUndecryptedWhenTheirAuthorBecomesAContact() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let bob = try ContactsAccountTests.account(0xB0)
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        var poll = JSONObject()
        poll["options"] = .array([.string("yes"), .string("no")])
        let unknown = try await alice.publishing.publish(.unknown(type: "poll", object: poll), audience: .contacts)
        let known = try await alice.publishing.post("hello", audience: .contacts)
        // Bob holds Alice's feed before he has her card, then adds it.
        _ = try await bob.feed.importVerified(lines: try await alice.feed.export(), identityKey: alice.identity.publicKeys.identityKey)
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        let sealed = try bob.store.read { db in
            try String.fetchOne(db, sql: "SELECT content_json FROM messages WHERE message_id = ?", arguments: [unknown.messageID.string])
        }
        #expect(sealed == nil)
        #expect(try bob.store.message(unknown.messageID) == nil)
        if case .post(let post)? = try bob.store.message(known.messageID)?.content { #expect(post.body == "hello") } else {
            Issue.record("the known post was not opened")
        }
    }
}
