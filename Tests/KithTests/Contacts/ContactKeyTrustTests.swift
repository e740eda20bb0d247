import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// A feed's keys come from its feed id and its verified key_rotation chain only; a card is a
/// claim checked against that chain (docs/FEED-FORMAT.md 11.1).
@Suite struct ContactKeyTrustTests {
    static let now = ContactsAccountTests.now

    static func body(_ account: Account, _ id: MessageID) throws -> String? {
        if case .post(let post)? = try account.store.message(id)?.content { return post.body }
        return nil
    }

    /// A card made by `holder` that names `victim`'s feed and carries its original key in 0x0004.
    static func forgedCard(by holder: Account, claiming victim: Account) throws -> ContactCard {
        try ContactCard.create(
            identity: holder.identity, displayName: "Alice", createdAt: now, originalIdentityKey: victim.identity.publicKeys.identityKey
        )
    }

    @Test func aForgedCardForAnExistingContactIsRefusedAndChangesNothing() async throws {
        let (alice, bob) = try await ContactsAccountTests.pair()
        let carol = try ContactsAccountTests.account(0xC0)
        let first = try await alice.publishing.post("hello Bob", audience: .contacts)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let before = try bob.store.contact(alice.feedID)
        let forged = try Self.forgedCard(by: carol, claiming: alice)
        #expect(forged.feedID == alice.feedID)
        await #expect {
            try await bob.contacts.add(cardText: forged.text, name: "Alice")
        } throws: { error in
            guard let error = error as? KithError, case .store(.contactKeyConflict) = error else { return false }
            return true
        }
        #expect(try bob.store.contact(alice.feedID) == before)
        #expect(try await bob.rotation.records(feed: alice.feedID).isEmpty)
        #expect(try bob.store.identityKey(of: alice.feedID)?.rawRepresentation == alice.identity.publicKeys.identityKey.rawRepresentation)
        // Alice's next entry is still hers and readable; Carol cannot sign into Alice's feed.
        let second = try await alice.publishing.post("still me", audience: .contacts)
        let report = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(report.outcomes.map(\.isAccepted) == [true, true])
        #expect(try Self.body(bob, first.messageID) == "hello Bob")
        #expect(try Self.body(bob, second.messageID) == "still me")
    }

    @Test func aFirstMeetingWithARotatedIdentityIsUnverified() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let dave = try ContactsAccountTests.account(0xD0)
        try await alice.rotation.rotate()
        try await dave.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await dave.contacts.card(displayName: "Dave").text, name: "Dave")
        let held = try #require(try dave.store.contact(alice.feedID))
        #expect(!held.keyIsVerified)
        // The feed is still verified with its original key only.
        #expect(try dave.store.identityKey(of: alice.feedID)?.rawRepresentation == alice.identity.originalIdentityKey.rawRepresentation)
        // Not trusted for the contacts audience: Dave's posts are not encrypted for the claimed key.
        #expect(try dave.store.contactsKeys().isEmpty)
        let early = try await dave.publishing.post("before your rotation is proven", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await dave.feed.export(), contact: dave.feedID)
        #expect(try Self.body(alice, early.messageID) == nil)
        // Not trusted for signing: Alice's entry signed with the claimed key is not linked.
        let post = try await alice.publishing.post("after rotating", audience: .contacts)
        _ = try await dave.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try dave.store.message(post.messageID) == nil)
        #expect(try dave.store.contact(alice.feedID)?.keyIsVerified == false)
    }

    /// Nothing is encrypted to an unverified claim: a direct message to such a contact is refused.
    @Test func noDirectMessageToAnUnverifiedContact() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let dave = try ContactsAccountTests.account(0xD0)
        try await alice.rotation.rotate()
        try await dave.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        let before = try dave.store.head(of: dave.feedID)
        await #expect {
            try await dave.direct.send("secret for the claimed key", to: alice.feedID)
        } throws: { error in
            guard case .contacts(.unverified(_, let feed))? = error as? KithError else { return false }
            return feed == alice.feedID && "\(error)".contains("not verified")
        }
        #expect(try dave.store.head(of: dave.feedID) == before)
    }

    @Test func aForgedFirstContactCardNeverBecomesTrusted() async throws {
        let alice = try ContactsAccountTests.account(0xA1)
        let dave = try ContactsAccountTests.account(0xD0)
        let carol = try ContactsAccountTests.account(0xC0)
        try await dave.contacts.add(cardText: try Self.forgedCard(by: carol, claiming: alice).text, name: "Alice?")
        #expect(try dave.store.contact(alice.feedID)?.keyIsVerified == false)
        await #expect(throws: KithError.self) { try await dave.contacts.introduce(alice.feedID, to: alice.feedID) }
        // Alice's real feed ingests with her original key; the claim stays unverified.
        let post = try await alice.publishing.post("public hello", audience: .contacts)
        let report = try await dave.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(report.acceptedCount == 1)
        _ = post
        #expect(try dave.store.contact(alice.feedID)?.keyIsVerified == false)
        #expect(try dave.store.contactsKeys().isEmpty)
        // Meeting the real Alice replaces the claim with a verified contact.
        try await dave.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text)
        let record = try #require(try dave.store.contact(alice.feedID))
        #expect(record.keyIsVerified && record.identityKey == alice.identity.publicKeys.identityKeyString)
    }

    @Test func anHonestRotatedCardIsAcceptedOnceTheRotationIsVerified() async throws {
        let pair = try await ContactsAccountTests.pair()
        let alice = pair.0
        let bob = pair.1
        let oldCard = try await alice.contacts.card(displayName: "Alice")
        try await alice.rotation.rotate()
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try await bob.rotation.records(feed: alice.feedID).map(\.verified) == [true])
        let record = try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        #expect(record.keyIsVerified && record.identityKey == alice.identity.publicKeys.identityKeyString)
        // A card from before the verified rotation no longer matches the chain.
        await #expect(throws: KithError.self) { try await bob.contacts.add(cardText: oldCard.text) }
        #expect(try bob.store.contact(alice.feedID)?.identityKey == alice.identity.publicKeys.identityKeyString)
    }
}
