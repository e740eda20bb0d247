import Crypto
import Foundation
import KithCanonical
import KithIdentity
import KithTestSupport
import Testing
@testable import KithFeed

/// Kith's published contacts-audience vectors (`TestVectors/contacts/contacts-v1.json`): the
/// pairwise contacts key, a v1 recipient map with four slots, a contact card and an attachment.
///
/// Generator: `KITH_WRITE_VECTORS=1 swift test --filter ContactsVectorTests` rewrites the file
/// from the fixed inputs below; without the variable the test checks the committed file against
/// this code. `Interop/contacts/check_contacts_post.py` decrypts the post from this file.
@Suite struct ContactsVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("contacts/contacts-v1.json")
    static let authorSeed: [UInt8] = (0..<32).map { UInt8(0x60 + $0) }
    static let recipientSeed: [UInt8] = (0..<32).map { UInt8(0x80 + $0) }
    static let otherSeeds: [[UInt8]] = [(0..<32).map { UInt8(0xA0 + $0) }, (0..<32).map { UInt8(0xC0 + $0) }]
    static let messageKey: [UInt8] = (0..<32).map { UInt8(0x10 + $0) }
    static let salt: [UInt8] = (0..<16).map { UInt8(0xF0 - $0) }
    static let blobKey: [UInt8] = (0..<32).map { UInt8(0x33 ^ $0) }
    static let sequence: UInt32 = 3
    static let plaintext = try! Content.post(Post(body: "Grüße to my contacts 🌿 — from the v1 vector.")).canonicalBytes()

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> JSONValue where Bytes.Element == UInt8 { .string(TestPaths.hexString(Array(bytes))) }
    static func hex(_ key: SymmetricKey) -> JSONValue { key.withUnsafeBytes { hex(Array($0)) } }

    static func generate() throws -> JSONObject {
        let author = try Identity(seed: try Seed(bytes: authorSeed))
        let recipient = try Identity(seed: try Seed(bytes: recipientSeed))
        let others = try otherSeeds.map { try Identity(seed: try Seed(bytes: $0)) }
        let pairKey = try ContactsKey.derive(myDHKey: author.dhKey, theirDHKey: recipient.dhKey.publicKey, myFeed: author.feedID, theirFeed: recipient.feedID)
        let selfKey = ContactsKey.selfSlotKey(journalKey: author.journalKey)
        let keys = try [selfKey, pairKey] + others.map {
            try ContactsKey.derive(myDHKey: author.dhKey, theirDHKey: $0.dhKey.publicKey, myFeed: author.feedID, theirFeed: $0.feedID)
        }
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: sequence, feedID: author.feedID, messageKey: messageKey, salt: salt)
        let info = ContactsAudienceCipher.slotInfo(sequence: sequence, feedID: author.feedID)
        let (slotID, pad) = ContactsAudienceCipher.slotMaterial(key: pairKey, salt: salt, info: info)

        var authorObject = JSONObject()
        authorObject["seed_hex"] = hex(authorSeed)
        authorObject["feed_id"] = .string(author.feedID.string)
        authorObject["identity_key"] = .string(author.publicKeys.identityKeyString)
        authorObject["dh_key"] = .string(author.publicKeys.dhKeyString)
        authorObject["journal_key_hex"] = hex(author.journalKey)
        authorObject["self_slot_key_hex"] = hex(selfKey)
        var recipientObject = JSONObject()
        recipientObject["seed_hex"] = hex(recipientSeed)
        recipientObject["feed_id"] = .string(recipient.feedID.string)
        recipientObject["dh_key"] = .string(recipient.publicKeys.dhKeyString)
        recipientObject["dh_private_hex"] = hex(recipient.dhKey.rawRepresentation)
        var contactsKey = JSONObject()
        contactsKey["x25519_shared_hex"] = hex(try author.dhKey.sharedSecretFromKeyAgreement(with: recipient.dhKey.publicKey).withUnsafeBytes { Array($0) })
        contactsKey["salt_ascii"] = .string("ProximityApp_ContactsKey_v1")
        contactsKey["info_ascii"] = .string(String(decoding: ContactsKey.info(author.feedID, recipient.feedID), as: UTF8.self))
        contactsKey["key_hex"] = hex(pairKey)
        var message = JSONObject()
        message["sequence"] = .integer(Int64(sequence))
        message["plaintext"] = .string(String(decoding: plaintext, as: UTF8.self))
        message["message_key_hex"] = hex(messageKey)
        message["salt_hex"] = hex(salt)
        message["slot_info_hex"] = hex(info)
        message["recipient_slot_id_hex"] = hex(slotID)
        message["recipient_slot_pad_hex"] = hex(pad)
        message["nonce_hex"] = hex(SelfAudienceCipher.nonce(sequence: sequence, feedID: author.feedID))
        message["slot_count"] = .integer(Int64(keys.count))
        message["content_enc"] = .string(Base64URL.encode(sealed))

        let card = try ContactCard.create(
            identity: author, displayName: "Zoë", createdAt: 1_790_000_000,
            extensions: [ContactCardExtension(type: ContactCardExtension.Kind.pushEndpoint, value: Array("https://push.example/zoe".utf8))]
        )
        var cardObject = JSONObject()
        cardObject["text"] = .string(card.text)
        cardObject["bytes"] = .integer(Int64(card.encoded.count))
        cardObject["display_name"] = .string(card.displayName)
        cardObject["created_at"] = .integer(card.createdAt)
        cardObject["feed_id"] = .string(card.feedID.string)

        let blob = try BlobCipher.seal(Array("attachment bytes".utf8), fixedKey: blobKey)
        var blobObject = JSONObject()
        blobObject["plaintext_ascii"] = .string("attachment bytes")
        blobObject["key"] = .string(blob.key)
        blobObject["blob_hex"] = hex(blob.blob)
        blobObject["content_hash"] = .string(blob.contentHash)

        var root = JSONObject()
        root["description"] = .string("Kith contacts audience v1 (docs/contacts.md): contacts key, recipient map, contact card, attachment blob")
        root["generator"] = .string("KITH_WRITE_VECTORS=1 swift test --filter ContactsVectorTests")
        root["author"] = .object(authorObject)
        root["recipient"] = .object(recipientObject)
        root["contacts_key"] = .object(contactsKey)
        root["message"] = .object(message)
        root["card"] = .object(cardObject)
        root["blob"] = .object(blobObject)
        return root
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let generated = try Self.generate()
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: CanonicalJSON.serialize(.object(generated)))
        let published = try #require(try CanonicalJSON.parse(bytes).objectValue)
        for name in ["author", "recipient", "contacts_key", "message", "blob"] {
            #expect(published[name] == generated[name], "\(name) differs")
        }
        // The card's signature may be randomized by the crypto backend: check it verifies and
        // carries the documented fields instead of comparing bytes.
        let cardObject = try #require(published["card"]?.objectValue)
        let card = try ContactCard(text: try #require(cardObject["text"]?.stringValue))
        #expect(card.displayName == "Zoë")
        #expect(card.createdAt == 1_790_000_000)
        #expect(card.feedID.string == published["author"]?.objectValue?["feed_id"]?.stringValue)
        #expect(card.extension(ContactCardExtension.Kind.pushEndpoint)?.value == Array("https://push.example/zoe".utf8))
    }

    @Test func theRecipientDecryptsThePublishedPost() throws {
        var bytes = Array(try Data(contentsOf: Self.url))
        if bytes.last == 0x0A { bytes.removeLast() }
        let published = try #require(try CanonicalJSON.parse(bytes).objectValue)
        let message = try #require(published["message"]?.objectValue)
        let sealed = try Base64URL.decode(try #require(message["content_enc"]?.stringValue))
        let author = try Identity(seed: try Seed(bytes: Self.authorSeed))
        let recipient = try Identity(seed: try Seed(bytes: Self.recipientSeed))
        let key = try ContactsKey.derive(myDHKey: recipient.dhKey, theirDHKey: author.dhKey.publicKey, myFeed: recipient.feedID, theirFeed: author.feedID)
        let opened = try ContactsAudienceCipher.open(sealed, keys: [key], sequence: Self.sequence, feedID: author.feedID)
        #expect(String(decoding: opened, as: UTF8.self) == message["plaintext"]?.stringValue)
        let outsider = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0x99, count: 32)))
        let wrong = try ContactsKey.derive(myDHKey: outsider.dhKey, theirDHKey: author.dhKey.publicKey, myFeed: outsider.feedID, theirFeed: author.feedID)
        #expect(throws: ContactsCipherError.notARecipient) { try ContactsAudienceCipher.open(sealed, keys: [wrong], sequence: Self.sequence, feedID: author.feedID) }
    }
}
