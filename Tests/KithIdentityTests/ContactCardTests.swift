import Crypto
import Foundation
import KithCanonical
import Testing
@testable import KithIdentity

@Suite struct ContactCardTests {
    let alice = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
    let bob = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))
    let now: Int64 = 1_790_000_000

    func card(name: String = "Alice", extensions: [ContactCardExtension] = []) throws -> ContactCard {
        try ContactCard.create(identity: alice, displayName: name, createdAt: now, extensions: extensions)
    }

    /// Re-signs card bytes (without their signature) with `identity`, so a test can change a field
    /// and still present a validly signed card.
    func resign(_ body: [UInt8], with identity: Identity) throws -> [UInt8] {
        body + (try identity.sign(ContactCardLimits.signatureLabel + body))
    }

    @Test func roundTripsThroughTheTextForm() throws {
        let original = try card()
        let parsed = try ContactCard(text: original.text)
        #expect(parsed == original)
        #expect(parsed.feedID == alice.feedID)
        #expect(parsed.displayName == "Alice")
        #expect(parsed.createdAt == now)
        #expect(parsed.publicKeys.dhKeyString == alice.publicKeys.dhKeyString)
        #expect(parsed.signedPrekey == Array(alice.dhKey.publicKey.rawRepresentation))
        #expect(original.encoded.count == 1_455 + 5)
        try parsed.checkAge(now: now + 60)
    }

    @Test func acceptsSurroundingWhitespaceInText() throws {
        let original = try card()
        #expect(try ContactCard(text: "  \(original.text)\n") == original)
    }

    @Test func rejectsATamperedCard() throws {
        let bytes = try card().encoded
        for offset in [1_385, 1_391, 1_300, 1_400] {  // created_at, name, signed prekey, signature
            var tampered = bytes
            tampered[offset] ^= 0x01
            #expect(throws: ContactCardError.badSignature) { try ContactCard.decode(tampered) }
        }
        var keyFlip = try card().encoded
        keyFlip[40] ^= 0x80  // inside the identity key
        #expect(throws: (any Error).self) { try ContactCard.decode(keyFlip) }
    }

    @Test func rejectsAnUnknownVersion() throws {
        var bytes = try card().encoded
        bytes[0] = 2
        #expect(throws: ContactCardError.unknownVersion(2)) { try ContactCard.decode(bytes) }
    }

    @Test func rejectsTruncatedAndTrailingBytes() throws {
        let bytes = try card().encoded
        for cut in [0, 1, 33, 500, bytes.count - 65, bytes.count - 1] {
            #expect(throws: (any Error).self) { try ContactCard.decode(Array(bytes.prefix(cut))) }
        }
        #expect(throws: (any Error).self) { try ContactCard.decode(bytes + [0]) }
    }

    @Test func rejectsACardWhoseFeedIDDoesNotMatchItsKey() throws {
        var body = Array(try card().encoded.dropLast(64))
        let bobFeed = bob.feedID.rawBytes
        body.replaceSubrange(1..<33, with: bobFeed)
        let forged = try resign(body, with: alice)
        #expect(throws: ContactCardError.feedIDMismatch(card: bob.feedID.string, derived: alice.feedID.string)) {
            try ContactCard.decode(forged)
        }
    }

    @Test func rejectsACardTooOldOrFromTheFuture() throws {
        let parsed = try card()
        #expect(throws: ContactCardError.tooOld(ageSeconds: 15 * 24 * 3600, maxAgeSeconds: ContactCardLimits.defaultMaxAge)) {
            try parsed.checkAge(now: now + 15 * 24 * 3600)
        }
        try parsed.checkAge(now: now + 3600, maxAge: 3600)
        #expect(throws: ContactCardError.self) { try parsed.checkAge(now: now + 3601, maxAge: 3600) }
        #expect(throws: ContactCardError.fromTheFuture(secondsAhead: 7200)) { try parsed.checkAge(now: now - 7200) }
    }

    @Test func rejectsOversizedFields() throws {
        #expect(throws: ContactCardError.self) { try card(name: String(repeating: "x", count: 65)) }
        #expect(throws: ContactCardError.self) { try card(name: String(repeating: "é", count: 64) + "ab") }
        #expect(throws: ContactCardError.self) {
            try card(extensions: [ContactCardExtension(type: 9, value: [UInt8](repeating: 1, count: 1_025))])
        }
        #expect(throws: ContactCardError.self) {
            try card(extensions: (0..<17).map { ContactCardExtension(type: 0x100 + UInt16($0), value: []) })
        }
        // A validly signed card with a 65-character name is still refused by the decoder.
        var body = Array(try card(name: "").encoded.dropLast(64))
        let nameOffset = 1 + 32 * 3 + 1_184 + 100 + 8
        body.replaceSubrange(nameOffset..<(nameOffset + 1), with: [65] + [UInt8](repeating: 0x61, count: 65))
        #expect(throws: ContactCardError.self) { try ContactCard.decode(try resign(body, with: alice)) }
        // Text longer than any card.
        #expect(throws: ContactCardError.self) { try ContactCard(text: String(repeating: "A", count: 4_000)) }
    }

    @Test func rejectsUnorderedExtensions() throws {
        var body = Array(try card(extensions: [ContactCardExtension(type: 1, value: [7]), ContactCardExtension(type: 2, value: [8])]).encoded.dropLast(64))
        // Swap the two type numbers: 2 then 1.
        let first = body.count - 10
        body[first + 1] = 2
        body[first + 6] = 1
        #expect(throws: ContactCardError.invalidField("extensions", reason: "types must be unique and ascending")) {
            try ContactCard.decode(try resign(body, with: alice))
        }
    }

    @Test func keepsUnknownExtensions() throws {
        let unknown = ContactCardExtension(type: 0x7F00, value: Array("future".utf8))
        let push = ContactCardExtension(type: ContactCardExtension.Kind.pushEndpoint, value: Array("https://push.example/x".utf8))
        let parsed = try ContactCard(text: try card(extensions: [unknown, push]).text)
        #expect(parsed.extensions == [push, unknown])
        #expect(parsed.extension(0x7F00)?.isKnown == false)
        #expect(parsed.extension(ContactCardExtension.Kind.pushEndpoint)?.isKnown == true)
    }

    @Test func aRotatedIdentityNamesItsOriginalFeed() throws {
        // Bob's keys stand in for Alice's new keys; the card names Alice's original feed.
        let rotated = try ContactCard.create(identity: bob, displayName: "Alice", createdAt: now, originalIdentityKey: alice.publicKeys.identityKey)
        let parsed = try ContactCard(text: rotated.text)
        #expect(parsed.feedID == alice.feedID)
        #expect(parsed.publicKeys.identityKeyString == bob.publicKeys.identityKeyString)
        #expect(parsed.feedKey.rawRepresentation == alice.publicKeys.identityKey.rawRepresentation)
        #expect(try card().originalIdentityKey == nil)
        // An original key that does not hash to the card's feed id is refused.
        var body = Array(rotated.encoded.dropLast(64))
        body[body.count - 1] ^= 0x01  // last byte of the extension value (the original key)
        #expect(throws: ContactCardError.self) { try ContactCard.decode(try resign(body, with: bob)) }
    }

    @Test func rejectsABadPrekeySignature() throws {
        var body = Array(try card().encoded.dropLast(64))
        let signatureOffset = 1 + 32 * 3 + 1_184 + 4 + 32
        body[signatureOffset] ^= 0x01
        #expect(throws: ContactCardError.badPrekeySignature) { try ContactCard.decode(try resign(body, with: alice)) }
    }

    @Test func rejectsNonBase64Text() throws {
        #expect(throws: ContactCardError.self) { try ContactCard(text: "not a card!") }
        #expect(throws: ContactCardError.self) { try ContactCard(text: "") }
    }

    @Test func signedPrekeyBytesMatchTheRatchetLayout() {
        let bytes = ContactCard.signedPrekeyBytes(id: 7, key: [UInt8](repeating: 9, count: 32))
        #expect(bytes == Array("Kith_SPK_v1".utf8) + [0, 0, 0, 7] + [UInt8](repeating: 9, count: 32))
    }
}
