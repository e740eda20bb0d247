import Foundation
import KithCanonical
import KithIdentity
import KithInvites
import Testing

/// Kith's reach field (field 1000 of `InvitePayload`): round trips inside the signed bytes, stays invisible to a
/// parser that skips unknown fields (Convos), and every bound.
struct InviteReachTests {
    static func compactCard(_ byte: UInt8 = 0x42) throws -> CompactContactCard {
        let identity = try Identity(seed: try Seed(bytes: [UInt8](repeating: byte, count: 32)))
        let card = try ContactCard.create(identity: identity, displayName: "Alice", createdAt: 1_780_000_000)
        return try CompactContactCard.create(identity: identity, card: card)
    }

    static func payload(reach: InviteReach?) throws -> (InvitePayload, InviteSigningKey) {
        let key = InviteSigningKey.generate()
        let inbox = InboxID(owner: key.publicKey, nonce: 0)
        let token = try ConversationToken.seal(conversationID: "grp", creatorKey: key, creatorInboxID: inbox)
        return (InvitePayload(conversationToken: token, creatorInboxID: inbox, tag: "Tag0123456", name: "n", reach: reach), key)
    }

    @Test func theReachRoundTripsInsideTheSignedBytes() throws {
        let card = try Self.compactCard()
        let reach = InviteReach(compactCardBytes: card.encoded, server: "https://kith.example", joinCode: "abcdefghij0123456789")
        let (payload, key) = try Self.payload(reach: reach)
        let invite = try SignedInvite(signing: payload, with: key)
        let decoded = try InviteCode.decode(InviteCode.encode(invite))
        #expect(decoded.payload.reach == reach)
        #expect(try decoded.payload.reach?.compactCard() == card)
        try decoded.verify(expectedSigner: key.publicKey)
        // Changing the reach changes the signed bytes: the signature no longer holds for the other key.
        var moved = payload
        moved.reach?.server = "https://evil.example"
        #expect(try moved.serializedBytes() != invite.payloadBytes)
    }

    @Test func aParserThatSkipsUnknownFieldsSeesConvosFieldsUnchanged() throws {
        let card = try Self.compactCard()
        var (payload, _) = try Self.payload(reach: nil)
        let plain = try payload.serializedBytes()
        payload.reach = InviteReach(compactCardBytes: card.encoded, server: "http://127.0.0.1:7460", joinCode: "code-123_x")
        let withReach = try payload.serializedBytes()
        // Fields 1–10 come first, byte for byte; field 1000 (tag 0xC2 0x3E, length-delimited) follows.
        #expect(Array(withReach.prefix(plain.count)) == plain)
        #expect(Array(withReach[plain.count..<plain.count + 2]) == [0xC2, 0x3E])
        // A payload without the field decodes with no reach.
        #expect(try InvitePayload(serialized: plain).reach == nil)
    }

    @Test func everyBoundIsEnforced() throws {
        let card = try Self.compactCard().encoded
        let bad: [(String, InviteReach)] = [
            ("empty card", InviteReach(compactCardBytes: [])),
            ("oversized card", InviteReach(compactCardBytes: [UInt8](repeating: 1, count: CompactContactCard.maxBytes + 1))),
            ("server without code", InviteReach(compactCardBytes: card, server: "https://a.example")),
            ("code without server", InviteReach(compactCardBytes: card, joinCode: "abcdefgh")),
            ("ftp server", InviteReach(compactCardBytes: card, server: "ftp://a.example", joinCode: "abcdefgh")),
            ("control character", InviteReach(compactCardBytes: card, server: "https://a.example/\u{1B}[2J", joinCode: "abcdefgh")),
            ("long server", InviteReach(compactCardBytes: card, server: "https://" + String(repeating: "a", count: 300), joinCode: "abcdefgh")),
            ("short code", InviteReach(compactCardBytes: card, server: "https://a.example", joinCode: "abc")),
            ("code with space", InviteReach(compactCardBytes: card, server: "https://a.example", joinCode: "abc defgh")),
        ]
        for (name, reach) in bad {
            #expect(throws: InviteError.self, "\(name)") { try reach.checkBounds() }
            let (payload, _) = try Self.payload(reach: reach)
            #expect(throws: InviteError.self, "\(name)") { try payload.serializedBytes() }
        }
        #expect(throws: Never.self) { try InviteReach(compactCardBytes: card).checkBounds() }
    }

    @Test func aTamperedCardDoesNotVerify() throws {
        var bytes = try Self.compactCard().encoded
        bytes[40] ^= 0x01
        #expect(throws: InviteError.self) { try InviteReach(compactCardBytes: bytes).compactCard() }
    }
}
