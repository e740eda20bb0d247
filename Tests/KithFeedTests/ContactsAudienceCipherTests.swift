import Crypto
import Foundation
import KithCanonical
import KithIdentity
import Testing
@testable import KithFeed

@Suite struct ContactsAudienceCipherTests {
    let alice = FeedFixtures.alice
    let bob = FeedFixtures.bob
    let carol = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xC0, count: 32)))
    let plaintext = Array(#"{"attachments":[],"body":"hello contacts","mentions":[],"reply_to":null,"type":"post"}"#.utf8)

    func key(_ me: Identity, _ them: Identity) throws -> SymmetricKey {
        try ContactsKey.derive(myDHKey: me.dhKey, theirDHKey: them.dhKey.publicKey, myFeed: me.feedID, theirFeed: them.feedID)
    }

    @Test func contactsKeyIsSymmetricAndFollowsTheSpec() throws {
        let ab = try key(alice, bob)
        #expect(ab == (try key(bob, alice)))
        let shared = try alice.dhKey.sharedSecretFromKeyAgreement(with: bob.dhKey.publicKey).withUnsafeBytes { Array($0) }
        let sorted = [alice.feedID.string, bob.feedID.string].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let expected = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared), salt: Array("ProximityApp_ContactsKey_v1".utf8),
            info: Array((sorted[0] + sorted[1]).utf8), outputByteCount: 32
        )
        #expect(ab == expected)
        #expect(ContactsKey.info(alice.feedID, bob.feedID) == ContactsKey.info(bob.feedID, alice.feedID))
        #expect(ContactsKey.info(alice.feedID, bob.feedID).count == 86)
    }

    @Test func everyRecipientReadsAndTheMapIsCompact() throws {
        let others = try (0..<20).map { try Identity(seed: try Seed(bytes: [UInt8](repeating: UInt8(0x10 + $0), count: 32))) }
        let keys = try [key(alice, bob)] + others.map { try key(alice, $0) }
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: 5, feedID: alice.feedID)
        #expect(sealed.count == 1 + 16 + 2 + 21 * 40 + plaintext.count + 16)
        #expect(try ContactsAudienceCipher.open(sealed, keys: [try key(bob, alice)], sequence: 5, feedID: alice.feedID) == plaintext)
        for other in others {
            #expect(try ContactsAudienceCipher.open(sealed, keys: [try key(other, alice)], sequence: 5, feedID: alice.feedID) == plaintext)
        }
    }

    @Test func aNonRecipientCannotRead() throws {
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [try key(alice, bob)], sequence: 1, feedID: alice.feedID)
        #expect(throws: ContactsCipherError.notARecipient) {
            try ContactsAudienceCipher.open(sealed, keys: [try key(carol, alice)], sequence: 1, feedID: alice.feedID)
        }
        // The right key at the wrong position finds no slot either.
        #expect(throws: ContactsCipherError.notARecipient) {
            try ContactsAudienceCipher.open(sealed, keys: [try key(bob, alice)], sequence: 2, feedID: alice.feedID)
        }
    }

    @Test func slotIDsAreFreshPerMessage() throws {
        let keys = [try key(alice, bob)]
        let first = try ContactsRecipientMap.decode(try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: 1, feedID: alice.feedID))
        let second = try ContactsRecipientMap.decode(try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: 1, feedID: alice.feedID))
        #expect(first.slots[0].id != second.slots[0].id)
        #expect(first.salt != second.salt)
    }

    @Test func rejectsATruncatedMap() throws {
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [try key(alice, bob), try key(alice, carol)], sequence: 1, feedID: alice.feedID)
        for cut in [0, 1, 17, 18, 19, 50, 19 + 80, 19 + 80 + 15] {
            #expect(throws: ContactsCipherError.self) {
                try ContactsAudienceCipher.open(Array(sealed.prefix(cut)), keys: [try key(bob, alice)], sequence: 1, feedID: alice.feedID)
            }
        }
        #expect(throws: ContactsCipherError.authenticationFailed) {
            try ContactsAudienceCipher.open(Array(sealed.dropLast()), keys: [try key(bob, alice)], sequence: 1, feedID: alice.feedID)
        }
    }

    @Test func rejectsTamperedSlotsAndBody() throws {
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [try key(alice, bob), try key(alice, carol)], sequence: 1, feedID: alice.feedID)
        for offset in [1, 19 + 8, 19 + 40 + 20, sealed.count - 1, sealed.count - 30] {
            var tampered = sealed
            tampered[offset] ^= 0x01
            #expect(throws: ContactsCipherError.self) {
                try ContactsAudienceCipher.open(tampered, keys: [try key(bob, alice)], sequence: 1, feedID: alice.feedID)
            }
        }
    }

    @Test func rejectsMalformedMaps() throws {
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [try key(alice, bob), try key(alice, carol)], sequence: 1, feedID: alice.feedID)
        var version = sealed
        version[0] = 2
        #expect(throws: ContactsCipherError.unknownMapVersion(2)) { try ContactsRecipientMap.decode(version) }
        var zero = sealed
        zero[17] = 0; zero[18] = 0
        #expect(throws: ContactsCipherError.malformedMap("no recipient slots")) { try ContactsRecipientMap.decode(zero) }
        var many = sealed
        many[17] = 0x04; many[18] = 0x01  // 1,025
        #expect(throws: ContactsCipherError.tooManyRecipients(1_025)) { try ContactsRecipientMap.decode(many) }
        // Swap the two slots: ids no longer ascending.
        var swapped = sealed
        swapped.replaceSubrange(19..<99, with: Array(sealed[59..<99]) + Array(sealed[19..<59]))
        #expect(throws: ContactsCipherError.malformedMap("slot ids must be unique and ascending")) { try ContactsRecipientMap.decode(swapped) }
    }

    @Test func boundsTheRecipientCount() throws {
        let k = try key(alice, bob)
        #expect(throws: ContactsCipherError.malformedMap("no recipient slots")) {
            try ContactsAudienceCipher.seal(plaintext, recipientKeys: [], sequence: 1, feedID: alice.feedID)
        }
        #expect(throws: ContactsCipherError.tooManyRecipients(1_025)) {
            try ContactsAudienceCipher.seal(plaintext, recipientKeys: [SymmetricKey](repeating: k, count: 1_025), sequence: 1, feedID: alice.feedID)
        }
        // Duplicate keys collapse into one slot.
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [k, k], sequence: 1, feedID: alice.feedID)
        #expect(try ContactsRecipientMap.decode(sealed).slots.count == 1)
    }

    @Test func selfSlotKeyReadsOwnPosts() throws {
        let own = ContactsKey.selfSlotKey(journalKey: alice.journalKey)
        let sealed = try ContactsAudienceCipher.seal(plaintext, recipientKeys: [own, try key(alice, bob)], sequence: 9, feedID: alice.feedID)
        #expect(try ContactsAudienceCipher.open(sealed, keys: [own], sequence: 9, feedID: alice.feedID) == plaintext)
        #expect(own != ContactsKey.selfSlotKey(journalKey: bob.journalKey))
    }
}
