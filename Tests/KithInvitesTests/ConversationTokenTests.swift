import KithInvites
import Testing

/// The conversation token: HKDF key, ChaCha20-Poly1305, inbox-id AAD, version byte, id packing.
struct ConversationTokenTests {
    static let key = InviteSigningKey.generate()
    static let inbox = InboxID(owner: key.publicKey, nonce: 0)

    @Test func knownAnswersFromPython() throws {
        for vector in try PythonInviteVector.all() {
            let key = try InviteSigningKey(rawRepresentation: hex(vector.private_key))
            let inbox = try InboxID(hex: vector.inbox_id)
            let token = try ConversationToken.seal(
                conversationID: vector.conversation_id, creatorKey: key, creatorInboxID: inbox,
                nonce: hex(vector.token_nonce))
            #expect(hexString(token.bytes) == vector.token, "\(vector.name)")
            #expect(try token.open(creatorKey: key, creatorInboxID: inbox) == vector.conversation_id)
        }
    }

    @Test func sizesMatchTheReference() throws {
        let group = try ConversationToken.seal(
            conversationID: "0123456789abcdef0123456789abcdef", creatorKey: Self.key, creatorInboxID: Self.inbox)
        #expect(group.bytes.count == 63)
        #expect(group.bytes[0] == 0x01)
        let uuid = try ConversationToken.seal(
            conversationID: "5F0C8A2E-3B1D-4E6F-9A7B-1C2D3E4F5A6B", creatorKey: Self.key, creatorInboxID: Self.inbox)
        #expect(uuid.bytes.count == 46)
        // A UUID unpacks lowercase.
        #expect(try uuid.open(creatorKey: Self.key, creatorInboxID: Self.inbox) == "5f0c8a2e-3b1d-4e6f-9a7b-1c2d3e4f5a6b")
        let long = String(repeating: "x", count: 300)
        let longToken = try ConversationToken.seal(conversationID: long, creatorKey: Self.key, creatorInboxID: Self.inbox)
        #expect(longToken.bytes.count == 1 + 12 + 4 + 300 + 16)
        #expect(try longToken.open(creatorKey: Self.key, creatorInboxID: Self.inbox) == long)
    }

    @Test func onlyTheCreatorOpensIt() throws {
        let token = try ConversationToken.seal(conversationID: "group-1", creatorKey: Self.key, creatorInboxID: Self.inbox)
        let other = InviteSigningKey.generate()
        #expect(throws: InviteError.tokenAuthenticationFailed) {
            try token.open(creatorKey: other, creatorInboxID: Self.inbox)
        }
        // AAD binding: the right key with another inbox id fails too.
        #expect(throws: InviteError.tokenAuthenticationFailed) {
            try token.open(creatorKey: Self.key, creatorInboxID: InboxID(owner: Self.key.publicKey, nonce: 1))
        }
        var tampered = token.bytes
        tampered[20] ^= 0x01
        #expect(throws: InviteError.tokenAuthenticationFailed) {
            try ConversationToken(bytes: tampered).open(creatorKey: Self.key, creatorInboxID: Self.inbox)
        }
    }

    @Test func malformedTokensAreRejected() throws {
        let token = try ConversationToken.seal(conversationID: "g", creatorKey: Self.key, creatorInboxID: Self.inbox)
        #expect(throws: InviteError.unsupportedTokenVersion(2)) { try ConversationToken(bytes: [2] + token.bytes.dropFirst()) }
        #expect(throws: InviteError.tokenSizeOutOfRange(bytes: 31)) { try ConversationToken(bytes: token.bytes.prefix(31)) }
        #expect(throws: InviteError.tokenSizeOutOfRange(bytes: InviteLimits.maxTokenBytes + 1)) {
            try ConversationToken(bytes: [1] + [UInt8](repeating: 0, count: InviteLimits.maxTokenBytes))
        }
        #expect(throws: InviteError.conversationIDSizeOutOfRange(bytes: 0)) {
            try ConversationToken.seal(conversationID: "", creatorKey: Self.key, creatorInboxID: Self.inbox)
        }
        #expect(throws: InviteError.conversationIDSizeOutOfRange(bytes: 65_536)) {
            try ConversationToken.seal(
                conversationID: String(repeating: "a", count: 65_536), creatorKey: Self.key, creatorInboxID: Self.inbox)
        }
    }
}
