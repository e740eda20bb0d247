import KithIdentity
import KithInvites
import Testing

/// Item 3: a Kith identity's invite key, its inbox id and the contact-card extension that carries the key.
struct InviteKeyTests {
    static let seed = try! Seed(bytes: [UInt8](repeating: 7, count: 32))

    @Test func inviteKeyIsDerivedFromTheSeedWithTheDocumentedLabel() throws {
        // HKDF-SHA256(seed, salt "Kith_Invite_v1", info "invite_key", 32), checked with Python's cryptography + coincurve.
        let key = try InviteSigningKey(seed: Self.seed)
        #expect(hexString(key.rawRepresentation) == "5f0da8e654fb2ec73568816b9aa3f80988ef82f99e815d63049ec3628cc0c931")
        #expect(hexString(key.publicKey.compressed) == "02f68434d94acf24373fe9dfa9eb16c1afc073c5938588e79ed269fe14e0316d1c")
        #expect(try InviteSigningKey(seed: Self.seed).rawRepresentation == key.rawRepresentation)
        #expect(try InviteSigningKey(seed: Seed(bytes: [UInt8](repeating: 8, count: 32))).rawRepresentation != key.rawRepresentation)
    }

    @Test func inboxIDIsTheFeedIDBytes() throws {
        let identity = try Identity(seed: Self.seed)
        let inbox = InboxID(feedID: identity.feedID)
        #expect(inbox.bytes == identity.feedID.rawBytes)
        #expect(inbox.feedID == identity.feedID)
        #expect(inbox.hex.count == 64)
        // A Kith signer never binds as an XMTP inbox: the feed id is not an address hash.
        #expect(inbox.bindingNonce(for: try InviteSigningKey(seed: Self.seed).publicKey) == nil)
    }

    @Test func theCardCarriesTheInviteKeyUnderItsSignature() throws {
        let identity = try Identity(seed: Self.seed)
        let key = try InviteSigningKey(seed: Self.seed)
        let card = try ContactCard.create(identity: identity, displayName: "A", createdAt: 1_790_000_000, extensions: [.inviteKey(key.publicKey)])
        let read = try ContactCard(text: card.text)
        #expect(read.invitePublicKey == key.publicKey)
        // A card made before invites still reads, with no invite key.
        let old = try ContactCard(text: try ContactCard.create(identity: identity, displayName: "A", createdAt: 1_790_000_000).text)
        #expect(old.invitePublicKey == nil)
        // A value that is not a compressed key reads as no key; the card itself stays valid.
        let odd = try ContactCard.create(
            identity: identity, displayName: "A", createdAt: 1_790_000_000,
            extensions: [ContactCardExtension(type: ContactCardExtension.Kind.inviteKey, value: [UInt8](repeating: 9, count: 32))])
        #expect(try ContactCard(text: odd.text).invitePublicKey == nil)
        // Changing the key in the encoded card breaks the card signature.
        var bytes = card.encoded
        let keyStart = bytes.count - 64 - 33
        bytes[keyStart + 5] ^= 0x01
        #expect(throws: ContactCardError.self) { try ContactCard.decode(bytes) }
    }

    @Test func kithBoundsRefuseOversizedFields() throws {
        let key = try InviteSigningKey(seed: Self.seed)
        let inbox = InboxID(feedID: try Identity(seed: Self.seed).feedID)
        let token = try ConversationToken.seal(conversationID: "g", creatorKey: key, creatorInboxID: inbox)
        var payload = InvitePayload(conversationToken: token, creatorInboxID: inbox, tag: "AbCdEf0123", name: "ok")
        try payload.checkKithBounds()
        payload.name = String(repeating: "n", count: InviteLimits.maxNameBytes + 1)
        #expect(throws: InviteError.fieldSizeOutOfRange(field: "name", bytes: 129)) { try payload.checkKithBounds() }
        payload.name = nil
        payload.description = String(repeating: "d", count: InviteLimits.maxDescriptionBytes + 1)
        #expect(throws: InviteError.self) { try payload.checkKithBounds() }
        payload.description = nil
        payload.imageURL = "http://plain.example/x.png"
        #expect(throws: InviteError.self) { try payload.checkKithBounds() }
        payload.imageURL = nil
        payload.emoji = String(repeating: "🎭", count: 17)
        #expect(throws: InviteError.self) { try payload.checkKithBounds() }
        payload.emoji = nil
        payload.tag = "short"
        #expect(throws: InviteError.invalidTag("short")) { try payload.checkKithBounds() }
    }
}
