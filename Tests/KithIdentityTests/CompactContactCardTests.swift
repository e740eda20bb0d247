import Crypto
import Foundation
import KithCanonical
import KithTerminal
import KithTestSupport
import Testing
@testable import KithIdentity

@Suite struct CompactContactCardTests {
    static let alice = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
    static let bob = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))
    static let now: Int64 = 1_790_000_000
    static let url = TestPaths.kithVectors.appendingPathComponent("cards/compact-v1.json")

    static func full(_ name: String = "Alice", identity: Identity = alice, createdAt: Int64 = now) throws -> ContactCard {
        try ContactCard.create(identity: identity, displayName: name, createdAt: createdAt)
    }

    /// Re-signs compact-card bytes (without their signature) with `identity`.
    static func resign(_ body: [UInt8], with identity: Identity = alice) throws -> [UInt8] {
        body + (try identity.sign(CompactContactCard.signatureLabel + body))
    }

    @Test func roundTripsThroughTextAndCompletesWithItsFullCard() throws {
        let card = try Self.full()
        let compact = try CompactContactCard.create(identity: Self.alice, card: card)
        #expect(compact.text.hasPrefix("KC1:"))
        #expect(compact.text.dropFirst(4).allSatisfy { ("A"..."Z").contains($0) || ("2"..."7").contains($0) })
        let parsed = try CompactContactCard(text: " \(compact.text)\n")
        #expect(parsed == compact)
        #expect(parsed.feedID == Self.alice.feedID)
        #expect(parsed.displayName == "Alice")
        #expect(parsed.identityKey.rawRepresentation == Self.alice.publicKeys.identityKey.rawRepresentation)
        #expect(parsed.dhKey.rawRepresentation == Self.alice.publicKeys.dhKey.rawRepresentation)
        #expect(parsed.encoded.count == 2 + 32 * 3 + 1 + 5 + 64)
        #expect(try parsed.complete(with: card) == card)
    }

    @Test func aLongNameIsCutAtACharacterBoundary() throws {
        let name = String(repeating: "é", count: 40) // 80 bytes of UTF-8
        let compact = try CompactContactCard.create(identity: Self.alice, card: try Self.full(name))
        #expect(compact.displayName == String(repeating: "é", count: 32))
        #expect("ab🎭".prefix(utf8Bytes: 5) == "ab")
        #expect("ab🎭".prefix(utf8Bytes: 6) == "ab🎭")
        #expect("e\u{301}x".prefix(utf8Bytes: 2) == "")
    }

    @Test func anotherFullCardIsACommitmentMismatch() throws {
        let compact = try CompactContactCard.create(identity: Self.alice, card: try Self.full())
        #expect(throws: CompactContactCardError.commitmentMismatch) { try compact.complete(with: try Self.full(createdAt: Self.now + 1)) }
        #expect(throws: CompactContactCardError.commitmentMismatch) { try compact.complete(with: try Self.full("Mallory")) }
        #expect(throws: CompactContactCardError.commitmentMismatch) { try compact.complete(with: try Self.full(identity: Self.bob)) }
    }

    @Test func aCompactCardCommittingToSomeoneElsesCardIsAKeyMismatch() throws {
        // Bob signs a compact card that commits to Alice's full card: the commitment matches, the keys do not.
        let aliceCard = try Self.full()
        var body = Array(try CompactContactCard.create(identity: Self.bob, card: try Self.full(identity: Self.bob)).encoded.dropLast(64))
        body.replaceSubrange(66..<98, with: CompactContactCard.commitment(to: aliceCard))
        let forged = try CompactContactCard.decode(try Self.resign(body, with: Self.bob))
        #expect(throws: CompactContactCardError.keyMismatch("identity key")) { try forged.complete(with: aliceCard) }
        #expect(throws: CompactContactCardError.keyMismatch("identity key (the card is not this identity's)")) {
            try CompactContactCard.create(identity: Self.bob, card: aliceCard)
        }
    }

    @Test func tamperedCardsAreRejected() throws {
        let compact = try CompactContactCard.create(identity: Self.alice, card: try Self.full())
        var flipped = compact.encoded
        flipped[70] ^= 0x01
        #expect(throws: CompactContactCardError.badSignature) { try CompactContactCard.decode(flipped) }
        var badSignature = compact.encoded
        badSignature[badSignature.count - 1] ^= 0x80
        #expect(throws: CompactContactCardError.badSignature) { try CompactContactCard.decode(badSignature) }
        // Signed by Bob while naming Alice's key.
        #expect(throws: CompactContactCardError.badSignature) { try CompactContactCard.decode(try Self.resign(Array(compact.encoded.dropLast(64)), with: Self.bob)) }
    }

    @Test func truncatedAndTrailingBytesAreMalformed() throws {
        let bytes = try CompactContactCard.create(identity: Self.alice, card: try Self.full()).encoded
        for length in [0, 1, 2, 40, 98, bytes.count - 1] {
            #expect(throws: CompactContactCardError.self) { try CompactContactCard.decode(Array(bytes.prefix(length))) }
            if case .malformed = try #require(Self.error { _ = try CompactContactCard.decode(Array(bytes.prefix(length))) }) {} else {
                Issue.record("length \(length) not malformed")
            }
        }
        if case .malformed = try #require(Self.error { _ = try CompactContactCard.decode(bytes + [0]) }) {} else { Issue.record("trailing byte") }
        #expect(throws: CompactContactCardError.tooLarge(CompactContactCard.maxBytes + 1)) {
            try CompactContactCard.decode([UInt8](repeating: 1, count: CompactContactCard.maxBytes + 1))
        }
    }

    @Test func oversizedNamesUnknownVersionsAndFlagsAreRejected() throws {
        let bytes = try CompactContactCard.create(identity: Self.alice, card: try Self.full()).encoded
        var body = Array(bytes.prefix(98))
        body.append(65)
        body += [UInt8](repeating: 0x61, count: 65)
        #expect(throws: CompactContactCardError.invalidField("name", reason: "65 bytes; at most 64")) { try CompactContactCard.decode(try Self.resign(body)) }
        let invalidUTF8 = Array(bytes.prefix(98)) + [2, 0xC3, 0x28]
        #expect(throws: CompactContactCardError.invalidField("name", reason: "not valid UTF-8")) { try CompactContactCard.decode(try Self.resign(invalidUTF8)) }
        var version = Array(bytes.dropLast(64))
        version[0] = 2
        #expect(throws: CompactContactCardError.unknownVersion(2)) { try CompactContactCard.decode(try Self.resign(version)) }
        var flags = Array(bytes.dropLast(64))
        flags[1] = 0x02
        #expect(throws: CompactContactCardError.invalidField("flags", reason: "unknown bits set (0x2)")) { try CompactContactCard.decode(try Self.resign(flags)) }
    }

    @Test func textFormsThatAreNotCanonicalAreRejected() throws {
        let compact = try CompactContactCard.create(identity: Self.alice, card: try Self.full())
        #expect(throws: CompactContactCardError.self) { try CompactContactCard(text: compact.text.lowercased()) }
        #expect(throws: CompactContactCardError.self) { try CompactContactCard(text: String(compact.text.dropFirst(4))) }
        #expect(throws: CompactContactCardError.self) { try CompactContactCard(text: compact.text + "=") }
        #expect(throws: CompactContactCardError.self) { try CompactContactCard(text: "KC1:" + String(repeating: "A", count: 600)) }
        #expect(!CompactContactCard.looksCompact(try Self.full().text))
    }

    @Test func base32RoundTripsAndRefusesNonCanonicalText() throws {
        for length in 0..<12 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes)
        }
        #expect(Base32.encode(Array("foobar".utf8)) == "MZXW6YTBOI")
        #expect(throws: Base32Error.nonZeroTrailingBits) { try Base32.decode("MZXW6YTBOJ") }
        #expect(throws: Base32Error.invalidLength(3)) { try Base32.decode("MZX") }
        #expect(throws: Base32Error.invalidCharacter(offset: 1)) { try Base32.decode("M1") }
    }

    /// The QR figures the format was designed for (level M): a deterministic property of the text, measured with libqrencode.
    @Test func theCompactCardFitsVersion13AtLevelM() throws {
        let card = try Self.full("Alice")
        let compact = try CompactContactCard.create(identity: Self.alice, card: card)
        let symbol = try QRCode.symbol(compact.text, level: .medium)
        #expect(symbol.width <= 69)
        #expect(symbol.version == 10)
        let longest = try CompactContactCard.create(identity: Self.alice, card: try Self.full(String(repeating: "W", count: 64)))
        #expect(try QRCode.symbol(longest.text, level: .medium).version <= 13)
        let fullSymbol = try QRCode.symbol(card.text, level: .medium)
        #expect(fullSymbol.width > 2 * symbol.width)
    }

    static func generate() throws -> JSONObject {
        let card = try full("Zoë")
        let compact = try CompactContactCard.create(identity: alice, card: card)
        var root = JSONObject()
        root["description"] = .string("Kith compact contact card v1 (docs/contacts.md): layout, commitment to the full card, Ed25519 signature, base32 text")
        root["generator"] = .string("KITH_WRITE_VECTORS=1 swift test --filter CompactContactCardTests")
        root["seed_hex"] = .string(Self.hex([UInt8](repeating: 0xA1, count: 32)))
        root["signature_label_ascii"] = .string("Kith_CompactCard_v1")
        root["commitment_label_ascii"] = .string("Kith_CardCommitment_v1")
        root["full_card_hex"] = .string(hex(card.encoded))
        root["commitment_hex"] = .string(hex(compact.commitment))
        root["compact_hex"] = .string(hex(compact.encoded))
        root["compact_text"] = .string(compact.text)
        root["display_name"] = .string(compact.displayName)
        root["qr_level_m_version"] = .integer(Int64(try QRCode.symbol(compact.text, level: .medium).version))
        return root
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let generated = CanonicalJSON.serialize(.object(try Self.generate()))
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: generated)
        #expect(bytes == generated)
    }

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func error(_ body: () throws -> Void) -> CompactContactCardError? {
        do { try body() } catch let error as CompactContactCardError { return error } catch { return nil }
        return nil
    }
}
