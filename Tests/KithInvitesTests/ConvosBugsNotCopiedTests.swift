import KithCanonical
import KithInvites
import Testing

/// One test per Convos bug or weak spot listed in `convos-invites.md` that Kith avoids.
struct ConvosBugsNotCopiedTests {
    /// protobufjs writes `expiresAfterUse = false` (`48 00`): verifying a re-serialization would fail, so Kith
    /// hashes the payload exactly as carried.
    @Test func explicitDefaultsVerifyAsCarried() throws {
        let vector = try PythonInviteVector.named("protobufjs-explicit-false")
        #expect(vector.payload.hasSuffix("4800"))
        let invite = try InviteCode.decode(vector.slug)
        #expect(try invite.verifyInboxBinding().nonce == 1)
        // Kith's own serialization of the same values differs (it omits the default) and must not be what is checked.
        #expect(try invite.payload.serializedBytes() != invite.payloadBytes)
    }

    /// Convos iOS cannot read convos-cli's zlib-wrapped frames; Kith reads raw first, then zlib.
    @Test func readsZlibWrappedFrames() throws {
        let vector = try PythonInviteVector.named("compressed-zlib-cli")
        let frame = try Base64URL.decode(vector.slug.replacingOccurrences(of: "*", with: ""))
        #expect(frame[0] == 0x1F && frame[5] == 0x78)
        #expect(try InviteCode.decode(vector.slug).verifyInboxBinding().nonce == 1)
    }

    /// Convos iOS reads a legacy hex inbox id as 64 raw bytes (a 128-character id); Kith converts it to 32 bytes.
    @Test func legacyInboxIDIsHexDecoded() throws {
        let vector = try PythonInviteVector.named("legacy-oct-2025")
        let invite = try InviteCode.decode(vector.slug)
        #expect(invite.payload.format == .legacy)
        #expect(invite.payload.creatorInboxID.bytes.count == 32)
        #expect(invite.payload.creatorInboxID.hex == vector.inbox_id)
        #expect(invite.payload.conversationToken.bytes.count == 63)
        #expect(invite.payload.expiresAtUnix == 1_761_955_200)
        #expect(invite.payload.conversationExpiresAtUnix == 1_762_041_600)
        #expect(try invite.verifyInboxBinding().nonce == 0)
    }

    /// The Convos joiner only checks that *a* key recovers; Kith binds the signer to `creator_inbox_id`, so an
    /// invite naming A's inbox but signed by B is refused.
    @Test func recoveryAloneIsNotTrusted() throws {
        let victim = InviteSigningKey.generate()
        let forger = InviteSigningKey.generate()
        let inbox = InboxID(owner: victim.publicKey, nonce: 0)
        let token = try ConversationToken.seal(conversationID: "g", creatorKey: forger, creatorInboxID: inbox)
        let forged = try SignedInvite(
            signing: InvitePayload(conversationToken: token, creatorInboxID: inbox, tag: "Forged0001"), with: forger)
        let decoded = try InviteCode.decode(InviteCode.encode(forged))
        #expect(try decoded.recoverSigner() == forger.publicKey)
        #expect(throws: InviteError.inboxBindingFailed) { try decoded.verifyInboxBinding() }
        #expect(throws: InviteError.signerMismatch) { try decoded.verify(expectedSigner: victim.publicKey) }
    }

    /// node-sdk treated 64-hex transaction hashes as slugs (PR #4); Kith refuses them with a typed error.
    @Test func transactionHashIsNotAnInvite() {
        let hash = "0x" + String(repeating: "3f", count: 32)
        #expect(throws: InviteError.self) { try InviteCode.decode(InviteLink(parsing: hash).code) }
        #expect(throws: InviteError.self) { try InviteCode.decode(String(repeating: "3f", count: 32)) }
    }

    /// Convos accepts an empty tag until the join; Kith refuses it at decode.
    @Test func emptyTagIsRefused() throws {
        let key = InviteSigningKey.generate()
        let inbox = InboxID(owner: key.publicKey, nonce: 0)
        let token = try ConversationToken.seal(conversationID: "g", creatorKey: key, creatorInboxID: inbox)
        let payload = [0x0A, UInt8(token.bytes.count)] + token.bytes + [0x12, 32] + inbox.bytes
        #expect(throws: InviteError.missingField("tag")) { try InvitePayload(serialized: payload) }
    }
}
