import Foundation
import KithAccountFixtures
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

@Suite struct ContactsAccountTests {
    static let now = MetAccounts.now

    static func account(_ byte: UInt8) throws -> Account { try MetAccounts.account(byte) }

    /// Alice and Bob meet and scan each other's cards.
    static func pair() async throws -> (Account, Account) { try await MetAccounts.met() }

    static func content(_ account: Account, _ id: MessageID) throws -> Content? {
        try account.store.message(id)?.content
    }

    @Test func contactsReadEachOthersPostsThroughExportAndImport() async throws {
        let (alice, bob) = try await Self.pair()
        let post = try await alice.publishing.post("hello Bob", audience: .contacts)
        #expect(try Self.content(alice, post.messageID) == .post(Post(body: "hello Bob")))
        let report = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(report.acceptedCount == 1)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "hello Bob")))
        let reply = try await bob.publishing.post("hi Alice", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try Self.content(alice, reply.messageID) == .post(Post(body: "hi Alice")))
    }

    @Test func importTakesTheKeyFromTheContactRecord() async throws {
        let (alice, bob) = try await Self.pair()
        let post = try await alice.publishing.post("found by feed id", audience: .contacts)
        #expect(try await bob.feed.importKnown(lines: try await alice.feed.export()).acceptedCount == 1)
        #expect(try Self.content(bob, post.messageID) != nil)
        let carol = try Self.account(0xC0)
        await #expect(throws: KithError.self) { try await carol.feed.importKnown(lines: try await alice.feed.export()) }
        await #expect(throws: KithError.self) { try await bob.feed.importKnown(lines: []) }
    }

    @Test func postsImportedBeforeAddingTheCardBecomeReadable() async throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text)
        try await alice.publishing.setProfile(displayName: "Alice")
        let post = try await alice.publishing.post("written before Bob scanned my card", audience: .contacts)
        _ = try await bob.feed.importVerified(lines: try await alice.feed.export(), identityKey: alice.identity.publicKeys.identityKey)
        #expect(try Self.content(bob, post.messageID) == nil)
        try await bob.contacts.add(cardText: try await alice.contacts.card().text)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "written before Bob scanned my card")))
        #expect(try bob.store.contact(alice.feedID)?.displayName == "Alice")
    }

    @Test func aStrangerStoresButCannotRead() async throws {
        let (alice, _) = try await Self.pair()
        try await alice.publishing.post("a note to self", audience: .selfOnly)
        let post = try await alice.publishing.post("contacts only", audience: .contacts)
        let carol = try Self.account(0xC0)
        let report = try await carol.feed.importVerified(lines: try await alice.feed.export(), identityKey: alice.identity.publicKeys.identityKey)
        #expect(report.acceptedCount == 2, "\(report.outcomes)")
        let held = try #require(try carol.store.message(post.messageID))
        #expect(held.content == nil)
    }

    @Test func aContactRemovedBeforeAMessageCannotReadIt() async throws {
        let (alice, bob) = try await Self.pair()
        let before = try await alice.publishing.post("before removal", audience: .contacts)
        try await alice.contacts.remove(bob.feedID)
        let after = try await alice.publishing.post("after removal", audience: .contacts)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try Self.content(bob, before.messageID) != nil)
        #expect(try Self.content(bob, after.messageID) == nil)
        #expect(try bob.store.message(after.messageID) != nil)
    }

    @Test func cardsAreCheckedWhenAdded() async throws {
        let alice = try Self.account(0xA1)
        let card = try await alice.contacts.card(displayName: "Alice")
        let late = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)), clock: { Self.now + 30 * 24 * 3600 })
        await #expect(throws: KithError.self) { try await late.contacts.add(cardText: card.text) }
        #expect(try await late.contacts.add(cardText: card.text, maxAge: 60 * 24 * 3600).feedID == alice.feedID)
        await #expect(throws: KithError.self) { try await alice.contacts.add(cardText: card.text) }
        var bytes = card.encoded
        bytes[1_391] ^= 1
        await #expect(throws: KithError.self) { try await late.contacts.add(cardText: Base64URL.encode(bytes)) }
    }

    @Test func profilesReactionsAndTombstones() async throws {
        let (alice, bob) = try await Self.pair()
        try await alice.publishing.setProfile(displayName: "Alice Liddell", avatar: Array("png bytes".utf8))
        let post = try await alice.publishing.post("delete me", audience: .contacts)
        try await alice.publishing.react(to: post.messageID, emoji: "👍")
        try await alice.publishing.delete(post.messageID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let record = try #require(try bob.store.contact(alice.feedID))
        #expect(record.displayName == "Alice Liddell")
        #expect(record.avatarHash != nil)
        #expect(record.shownName == "Alice")
        let held = try #require(try bob.store.message(post.messageID))
        #expect(held.tombstoned && held.content == nil)
        await #expect(throws: KithError.self) { try await alice.publishing.react(to: post.messageID, emoji: "no") }
        await #expect(throws: KithError.self) { try await bob.publishing.delete(post.messageID) }
        #expect(await bob.contacts.displayName(of: alice.feedID) == "Alice")
        #expect(await bob.contacts.displayName(of: bob.feedID) == "me")
    }

    @Test func attachmentsAreEncryptedAndReadableByContacts() async throws {
        let (alice, bob) = try await Self.pair()
        let photo: [UInt8] = (0..<3_000).map { UInt8(truncatingIfNeeded: $0) }
        let post = try await alice.publishing.post("a photo", audience: .contacts, attachments: [photo])
        #expect(try await alice.publishing.attachment(of: post.messageID, index: 0) == photo)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        await #expect(throws: KithError.self) { try await bob.publishing.attachment(of: post.messageID, index: 0) }
        for blob in try await alice.publishing.exportBlobs() {
            #expect(!blob.contains(subsequence: Array(photo.prefix(64))))
            try await bob.publishing.importBlob(blob)
        }
        #expect(try await bob.publishing.attachment(of: post.messageID, index: 0) == photo)
        await #expect(throws: KithError.self) { try await alice.publishing.post("too many", audience: .contacts, attachments: Array(repeating: [1], count: 5)) }
    }

    @Test func introductionsReachOnlyTheirRecipient() async throws {
        let (alice, bob) = try await Self.pair()
        let carol = try Self.account(0xC0)
        try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await carol.contacts.add(cardText: try await alice.contacts.card().text, name: "Alice")
        let dave = try Self.account(0xD0)
        try await alice.contacts.add(cardText: try await dave.contacts.card(displayName: "Dave").text, name: "Dave")
        try await dave.contacts.add(cardText: try await alice.contacts.card().text, name: "Alice")
        let intro = try await alice.contacts.introduce(carol.feedID, to: bob.feedID, note: "you two should meet")
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        _ = try await dave.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let staged = try await bob.contacts.introductions()
        #expect(staged.map(\.introducedFeedID) == [carol.feedID])
        #expect(staged.first?.note == "you two should meet")
        #expect(try Self.content(dave, intro.messageID) == nil)
        #expect(try await dave.contacts.introductions().isEmpty)
        // Meeting Carol in person turns the introduction into a contact.
        try await bob.contacts.add(cardText: try await carol.contacts.card().text)
        #expect(try await bob.contacts.introductions().isEmpty)
    }

    @Test func postsToOneThousandContactsFitTheEnvelope() async throws {
        let alice = try Self.account(0xA1)
        let seeds = (0..<1_000).map { index -> [UInt8] in [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 0x42, count: 30) }
        for seed in seeds {
            let other = try Identity(seed: try Seed(bytes: seed))
            let card = try ContactCard.create(identity: other, displayName: "", createdAt: Self.now)
            try await alice.contacts.add(card: card)
        }
        let envelope = try await alice.publishing.post(String(repeating: "x", count: 280), audience: .contacts)
        #expect(envelope.canonicalBytes.count < 100_000)
        #expect(try ContactsRecipientMap.decode(try envelope.contentBytes()).slots.count == 1_001)
    }

    @Test func aContactsVerifiedRotationKeepsTheirPostsReadable() async throws {
        let (alice, bob) = try await Self.pair()
        let rotated = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA2, count: 32)))
        let newKeys = rotated.publicKeys
        let signed = Array(newKeys.identityKey.rawRepresentation) + Array(newKeys.dhKey.rawRepresentation) + Array(newKeys.pqKey.rawRepresentation)
        let rotation = try await alice.publishing.publish(.keyRotation(KeyRotation(
            newIdentityKey: newKeys.identityKeyString, newDHKey: newKeys.dhKeyString, newPQKey: newKeys.pqKeyString,
            previousKeySignature: Base64URL.encode(try alice.identity.sign(signed)), reason: "device_migration"
        )), audience: .contacts)
        // Alice's new device signs with the new identity key and agrees with the new dh key.
        let plaintext = try Content.post(Post(body: "from my new phone")).canonicalBytes()
        let pairKey = try ContactsKey.derive(myDHKey: rotated.dhKey, theirDHKey: bob.identity.dhKey.publicKey, myFeed: alice.feedID, theirFeed: bob.feedID)
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [pairKey], sequence: 1, feedID: alice.feedID)
        var object = JSONObject()
        object["audience"] = .string("contacts")
        object["content_enc"] = .string(Base64URL.encode(sealed))
        object["feed_id"] = .string(alice.feedID.string)
        object["previous"] = .string(rotation.messageID.string)
        object["sequence"] = .integer(1)
        object["timestamp"] = .integer(Self.now)
        object["type"] = .string("post")
        object["version"] = .integer(1)
        object["signature"] = .string(Base64URL.encode(try rotated.sign(CanonicalJSON.serialize(object))))
        let next = CanonicalJSON.serialize(object)
        // One batch: Bob learns the new keys from the rotation and reads the next post with them.
        let report = try await bob.feed.importFromContact(lines: try await alice.feed.export() + [next], contact: alice.feedID)
        #expect(report.acceptedCount == 2)
        let post = try Envelope.parseV1(next)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "from my new phone")))
        #expect(try await bob.rotation.records().map(\.verified) == [true])
        // Bob's next contacts post is encrypted with the re-derived key.
        #expect(try bob.store.contact(alice.feedID)?.keyIsStale == true)
        let reply = try await bob.publishing.post("welcome back", audience: .contacts)
        #expect(try bob.store.contact(alice.feedID)?.keyIsStale == false)
        let replyContent = try reply.contentBytes()
        let bobSide = try ContactsKey.derive(myDHKey: rotated.dhKey, theirDHKey: bob.identity.dhKey.publicKey, myFeed: alice.feedID, theirFeed: bob.feedID)
        #expect(try ContactsAudienceCipher.open(replyContent, keys: [bobSide], sequence: reply.sequence, feedID: bob.feedID).count > 0)
    }

    /// A card is never proof of a rotation (docs/FEED-FORMAT.md 11.1): only a `previous_key_sig`
    /// verified along the feed's key chain is. (Before issue 11 a card "confirmed" the rotation.)
    @Test func anUnverifiedRotationIsNotTrustedEvenAfterMeetingAgain() async throws {
        let (alice, bob) = try await Self.pair()
        let rotated = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA2, count: 32)))
        let newKeys = rotated.publicKeys
        // The old device was lost: no previous_key_sig.
        let rotation = try await alice.publishing.publish(.keyRotation(KeyRotation(
            newIdentityKey: newKeys.identityKeyString, newDHKey: newKeys.dhKeyString, newPQKey: newKeys.pqKeyString,
            previousKeySignature: nil, reason: "device_migration"
        )), audience: .contacts)
        var object = JSONObject()
        object["audience"] = .string("contacts")
        let pairKey = try ContactsKey.derive(myDHKey: rotated.dhKey, theirDHKey: bob.identity.dhKey.publicKey, myFeed: alice.feedID, theirFeed: bob.feedID)
        object["content_enc"] = .string(Base64URL.encode(try ContactsAudienceCipher.seal(
            try Content.post(Post(body: "new phone, who dis")).canonicalBytes(), recipientKeys: [pairKey], sequence: 1, feedID: alice.feedID
        )))
        object["feed_id"] = .string(alice.feedID.string)
        object["previous"] = .string(rotation.messageID.string)
        object["sequence"] = .integer(1)
        object["timestamp"] = .integer(Self.now)
        object["type"] = .string("post")
        object["version"] = .integer(1)
        object["signature"] = .string(Base64URL.encode(try rotated.sign(CanonicalJSON.serialize(object))))
        let lines = try await alice.feed.export() + [CanonicalJSON.serialize(object)]
        let first = try await bob.feed.importFromContact(lines: lines, contact: alice.feedID)
        #expect(first.acceptedCount == 1)
        #expect(try await bob.rotation.records().map(\.verified) == [false])
        // They meet; Alice shows the card of her new device, naming her original feed.
        let card = try ContactCard.create(identity: rotated, displayName: "Alice", createdAt: Self.now, originalIdentityKey: alice.identity.publicKeys.identityKey)
        await #expect {
            try await bob.contacts.add(cardText: card.text, name: "Alice")
        } throws: { error in
            guard case KithError.store(.contactKeyConflict)? = error as? KithError else { return false }
            return true
        }
        #expect(try await bob.rotation.records().map(\.verified) == [false])
        #expect(try bob.store.contact(alice.feedID)?.identityKey == alice.identity.publicKeys.identityKeyString)
        let second = try await bob.feed.importFromContact(lines: lines, contact: alice.feedID)
        #expect(second.outcomes.last?.isAccepted == false)
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
