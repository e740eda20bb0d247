import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

@Suite struct ContactsAccountTests {
    static let now: Int64 = 1_790_000_000

    static func account(_ byte: UInt8) throws -> Account {
        try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: byte, count: 32)), clock: { now })
    }

    /// Alice and Bob meet and scan each other's cards.
    static func pair() throws -> (Account, Account) {
        let alice = try account(0xA1)
        let bob = try account(0xB0)
        try bob.addContact(cardText: try alice.contactCard(displayName: "Alice").text, name: "Alice")
        try alice.addContact(cardText: try bob.contactCard(displayName: "Bob").text, name: "Bob")
        return (alice, bob)
    }

    static func content(_ account: Account, _ id: MessageID) throws -> Content? {
        try account.store.message(id)?.content
    }

    @Test func contactsReadEachOthersPostsThroughExportAndImport() throws {
        let (alice, bob) = try Self.pair()
        let post = try alice.post("hello Bob", audience: .contacts)
        #expect(try Self.content(alice, post.messageID) == .post(Post(body: "hello Bob")))
        let report = try bob.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        #expect(report.acceptedCount == 1)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "hello Bob")))
        let reply = try bob.post("hi Alice", audience: .contacts)
        _ = try alice.importContactFeed(lines: try bob.exportFeed(), contact: "Bob")
        #expect(try Self.content(alice, reply.messageID) == .post(Post(body: "hi Alice")))
    }

    @Test func importTakesTheKeyFromTheContactRecord() throws {
        let (alice, bob) = try Self.pair()
        let post = try alice.post("found by feed id", audience: .contacts)
        #expect(try bob.importKnownFeed(lines: try alice.exportFeed()).acceptedCount == 1)
        #expect(try Self.content(bob, post.messageID) != nil)
        let carol = try Self.account(0xC0)
        #expect(throws: KithError.self) { try carol.importKnownFeed(lines: try alice.exportFeed()) }
        #expect(throws: KithError.self) { try bob.importKnownFeed(lines: []) }
    }

    @Test func postsImportedBeforeAddingTheCardBecomeReadable() throws {
        let alice = try Self.account(0xA1)
        let bob = try Self.account(0xB0)
        try alice.addContact(cardText: try bob.contactCard(displayName: "Bob").text)
        try alice.setProfile(displayName: "Alice")
        let post = try alice.post("written before Bob scanned my card", audience: .contacts)
        _ = try bob.importFeed(lines: try alice.exportFeed(), identityKey: alice.identity.publicKeys.identityKey)
        #expect(try Self.content(bob, post.messageID) == nil)
        try bob.addContact(cardText: try alice.contactCard().text)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "written before Bob scanned my card")))
        #expect(try bob.store.contact(alice.feedID)?.displayName == "Alice")
    }

    @Test func aStrangerStoresButCannotRead() throws {
        let (alice, _) = try Self.pair()
        try alice.post("a note to self", audience: .selfOnly)
        let post = try alice.post("contacts only", audience: .contacts)
        let carol = try Self.account(0xC0)
        let report = try carol.importFeed(lines: try alice.exportFeed(), identityKey: alice.identity.publicKeys.identityKey)
        #expect(report.acceptedCount == 2, "\(report.outcomes)")
        let held = try #require(try carol.store.message(post.messageID))
        #expect(held.content == nil)
    }

    @Test func aContactRemovedBeforeAMessageCannotReadIt() throws {
        let (alice, bob) = try Self.pair()
        let before = try alice.post("before removal", audience: .contacts)
        try alice.removeContact("Bob")
        let after = try alice.post("after removal", audience: .contacts)
        _ = try bob.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        #expect(try Self.content(bob, before.messageID) != nil)
        #expect(try Self.content(bob, after.messageID) == nil)
        #expect(try bob.store.message(after.messageID) != nil)
    }

    @Test func cardsAreCheckedWhenAdded() throws {
        let alice = try Self.account(0xA1)
        let card = try alice.contactCard(displayName: "Alice")
        let late = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)), clock: { Self.now + 30 * 24 * 3600 })
        #expect(throws: KithError.self) { try late.addContact(cardText: card.text) }
        #expect(try late.addContact(cardText: card.text, maxAge: 60 * 24 * 3600).feedID == alice.feedID)
        #expect(throws: KithError.self) { try alice.addContact(cardText: card.text) }
        var bytes = card.encoded
        bytes[1_391] ^= 1
        #expect(throws: KithError.self) { try late.addContact(cardText: Base64URL.encode(bytes)) }
    }

    @Test func profilesReactionsAndTombstones() throws {
        let (alice, bob) = try Self.pair()
        try alice.setProfile(displayName: "Alice Liddell", avatar: Array("png bytes".utf8))
        let post = try alice.post("delete me", audience: .contacts)
        try alice.react(to: post.messageID, emoji: "👍")
        try alice.delete(post.messageID)
        _ = try bob.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        let record = try #require(try bob.store.contact(alice.feedID))
        #expect(record.displayName == "Alice Liddell")
        #expect(record.avatarHash != nil)
        #expect(record.shownName == "Alice")
        let held = try #require(try bob.store.message(post.messageID))
        #expect(held.tombstoned && held.content == nil)
        #expect(throws: KithError.self) { try alice.react(to: post.messageID, emoji: "no") }
        #expect(throws: KithError.self) { try bob.delete(post.messageID) }
        #expect(bob.displayName(of: alice.feedID) == "Alice")
        #expect(bob.displayName(of: bob.feedID) == "me")
    }

    @Test func attachmentsAreEncryptedAndReadableByContacts() throws {
        let (alice, bob) = try Self.pair()
        let photo: [UInt8] = (0..<3_000).map { UInt8(truncatingIfNeeded: $0) }
        let post = try alice.post("a photo", audience: .contacts, attachments: [photo])
        #expect(try alice.attachment(of: post.messageID, index: 0) == photo)
        _ = try bob.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        #expect(throws: KithError.self) { try bob.attachment(of: post.messageID, index: 0) }
        for blob in try alice.exportBlobs() {
            #expect(!blob.contains(subsequence: Array(photo.prefix(64))))
            try bob.importBlob(blob)
        }
        #expect(try bob.attachment(of: post.messageID, index: 0) == photo)
        #expect(throws: KithError.self) { try alice.post("too many", audience: .contacts, attachments: Array(repeating: [1], count: 5)) }
    }

    @Test func introductionsReachOnlyTheirRecipient() throws {
        let (alice, bob) = try Self.pair()
        let carol = try Self.account(0xC0)
        try alice.addContact(cardText: try carol.contactCard(displayName: "Carol").text, name: "Carol")
        try carol.addContact(cardText: try alice.contactCard().text, name: "Alice")
        let dave = try Self.account(0xD0)
        try alice.addContact(cardText: try dave.contactCard(displayName: "Dave").text, name: "Dave")
        try dave.addContact(cardText: try alice.contactCard().text, name: "Alice")
        let intro = try alice.introduce("Carol", to: "Bob", note: "you two should meet")
        _ = try bob.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        _ = try dave.importContactFeed(lines: try alice.exportFeed(), contact: "Alice")
        let staged = try bob.introductions()
        #expect(staged.map(\.introducedFeedID) == [carol.feedID])
        #expect(staged.first?.note == "you two should meet")
        #expect(try Self.content(dave, intro.messageID) == nil)
        #expect(try dave.introductions().isEmpty)
        // Meeting Carol in person turns the introduction into a contact.
        try bob.addContact(cardText: try carol.contactCard().text)
        #expect(try bob.introductions().isEmpty)
    }

    @Test func postsToOneThousandContactsFitTheEnvelope() throws {
        let alice = try Self.account(0xA1)
        let seeds = (0..<1_000).map { index -> [UInt8] in [UInt8(index >> 8), UInt8(index & 0xFF)] + [UInt8](repeating: 0x42, count: 30) }
        for seed in seeds {
            let other = try Identity(seed: try Seed(bytes: seed))
            let card = try ContactCard.create(identity: other, displayName: "", createdAt: Self.now)
            try alice.addContact(card: card)
        }
        let envelope = try alice.post(String(repeating: "x", count: 280), audience: .contacts)
        #expect(envelope.canonicalBytes.count < 100_000)
        #expect(try ContactsRecipientMap.decode(try envelope.contentBytes()).slots.count == 1_001)
    }

    @Test func aContactsVerifiedRotationKeepsTheirPostsReadable() throws {
        let (alice, bob) = try Self.pair()
        let rotated = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA2, count: 32)))
        let newKeys = rotated.publicKeys
        let signed = Array(newKeys.identityKey.rawRepresentation) + Array(newKeys.dhKey.rawRepresentation) + Array(newKeys.pqKey.rawRepresentation)
        let rotation = try alice.publish(.keyRotation(KeyRotation(
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
        let report = try bob.importContactFeed(lines: try alice.exportFeed() + [next], contact: "Alice")
        #expect(report.acceptedCount == 2)
        let post = try Envelope.parseV1(next)
        #expect(try Self.content(bob, post.messageID) == .post(Post(body: "from my new phone")))
        #expect(try bob.keyRotations().map(\.verified) == [true])
        // Bob's next contacts post is encrypted with the re-derived key.
        #expect(try bob.store.contact(alice.feedID)?.keyIsStale == true)
        let reply = try bob.post("welcome back", audience: .contacts)
        #expect(try bob.store.contact(alice.feedID)?.keyIsStale == false)
        let replyContent = try reply.contentBytes()
        let bobSide = try ContactsKey.derive(myDHKey: rotated.dhKey, theirDHKey: bob.identity.dhKey.publicKey, myFeed: alice.feedID, theirFeed: bob.feedID)
        #expect(try ContactsAudienceCipher.open(replyContent, keys: [bobSide], sequence: reply.sequence, feedID: bob.feedID).count > 0)
    }

    /// A card is never proof of a rotation (docs/FEED-FORMAT.md 11.1): only a `previous_key_sig`
    /// verified along the feed's key chain is. (Before issue 11 a card "confirmed" the rotation.)
    @Test func anUnverifiedRotationIsNotTrustedEvenAfterMeetingAgain() throws {
        let (alice, bob) = try Self.pair()
        let rotated = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA2, count: 32)))
        let newKeys = rotated.publicKeys
        // The old device was lost: no previous_key_sig.
        let rotation = try alice.publish(.keyRotation(KeyRotation(
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
        let lines = try alice.exportFeed() + [CanonicalJSON.serialize(object)]
        let first = try bob.importContactFeed(lines: lines, contact: "Alice")
        #expect(first.acceptedCount == 1)
        #expect(try bob.keyRotations().map(\.verified) == [false])
        // They meet; Alice shows the card of her new device, naming her original feed.
        let card = try ContactCard.create(identity: rotated, displayName: "Alice", createdAt: Self.now, originalIdentityKey: alice.identity.publicKeys.identityKey)
        #expect {
            try bob.addContact(cardText: card.text, name: "Alice")
        } throws: { error in
            guard case KithError.store(.contactKeyConflict)? = error as? KithError else { return false }
            return true
        }
        #expect(try bob.keyRotations().map(\.verified) == [false])
        #expect(try bob.store.contact(alice.feedID)?.identityKey == alice.identity.publicKeys.identityKeyString)
        let second = try bob.importContactFeed(lines: lines, contact: "Alice")
        #expect(second.outcomes.last?.isAccepted == false)
    }

    @Test func cardsRenderAsQRCodes() throws {
        let card = try Self.account(0xA1).contactCard(displayName: "Alice")
        let matrix = try QRCode.matrix(card.text)
        #expect(matrix.count >= 21 && (matrix.count - 17) % 4 == 0)
        #expect(matrix.allSatisfy { $0.count == matrix.count })
        // Finder pattern in the top-left corner: a dark 7×7 ring.
        #expect(matrix[0].prefix(7).allSatisfy { $0 } && matrix[6].prefix(7).allSatisfy { $0 })
        let text = try QRCode.render(card.text)
        #expect(text.split(separator: "\n").count == (matrix.count + 4 + 1) / 2)
        #expect(throws: KithError.self) { try QRCode.matrix(String(repeating: "x", count: 8_000)) }
    }

    @Test func theDemoShowsContactsReadingAndStrangersLockedOut() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-contacts-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var lines: [String] = []
        let summary = try Demo.run(in: directory) { lines.append($0) }
        #expect(summary.contactReadPost)
        #expect(summary.strangerLockedOut)
        #expect(lines.contains { $0.contains("\u{2588}") })
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
