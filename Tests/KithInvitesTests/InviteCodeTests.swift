import Foundation
import KithCanonical
import KithInvites
import Testing

/// Invite codes: Python-made vectors, round trips, compression, separators and every rejection.
struct InviteCodeTests {
    static let now: Int64 = 1_780_000_000

    static func makeInvite(
        name: String? = nil, description: String? = nil, expiresAtUnix: Int64? = nil, conversationID: String = "grp"
    ) throws -> (SignedInvite, InviteSigningKey) {
        let key = InviteSigningKey.generate()
        let inbox = InboxID(owner: key.publicKey, nonce: 0)
        let token = try ConversationToken.seal(conversationID: conversationID, creatorKey: key, creatorInboxID: inbox)
        let payload = InvitePayload(
            conversationToken: token, creatorInboxID: inbox, tag: "Tag0123456", name: name, description: description,
            expiresAtUnix: expiresAtUnix)
        return (try SignedInvite(signing: payload, with: key), key)
    }

    @Test func everyPythonVectorDecodesAndBinds() throws {
        for vector in try PythonInviteVector.all() {
            let invite = try InviteCode.decode(vector.slug)
            #expect(hexString(invite.payloadBytes) == vector.payload, "\(vector.name)")
            #expect(hexString(invite.signature.bytes) == vector.signature)
            #expect(try hexString(invite.recoverSigner().uncompressed) == vector.public_key)
            let binding = try invite.verifyInboxBinding()
            #expect(binding.nonce == vector.inbox_nonce)
            try invite.verify(expectedSigner: InvitePublicKey(hex(vector.public_key)))
            let payload = invite.payload
            #expect(payload.creatorInboxID.hex == vector.inbox_id)
            #expect(hexString(payload.conversationToken.bytes) == vector.token)
            #expect(payload.tag == vector.fields.tag)
            #expect(payload.name == vector.fields.name)
            #expect(payload.description == vector.fields.description)
            #expect(payload.imageURL == vector.fields.imageURL)
            #expect(payload.conversationExpiresAtUnix == vector.fields.conversationExpiresAtUnix)
            #expect(payload.expiresAtUnix == vector.fields.expiresAtUnix)
            #expect(payload.expiresAfterUse == (vector.fields.expiresAfterUse ?? false))
            #expect(payload.emoji == vector.fields.emoji)
            #expect(payload.format == (vector.legacy ? .legacy : .current))
            let key = try InviteSigningKey(rawRepresentation: hex(vector.private_key))
            #expect(try payload.conversationToken.open(creatorKey: key, creatorInboxID: payload.creatorInboxID)
                == vector.conversation_id)
            #expect(try InviteLink(parsing: vector.url).code == vector.slug)
        }
    }

    @Test func kithEncodesPythonVectorsByteForByte() throws {
        for vector in try PythonInviteVector.all() where vector.kith_serialization && !vector.compressed {
            let key = try InviteSigningKey(rawRepresentation: hex(vector.private_key))
            let decoded = try InviteCode.decode(vector.slug).payload
            // Rebuild from Swift values, re-sign and re-encode: identical payload, signature and slug.
            let rebuilt = InvitePayload(
                conversationToken: decoded.conversationToken, creatorInboxID: decoded.creatorInboxID, tag: decoded.tag,
                name: decoded.name, description: decoded.description, imageURL: decoded.imageURL,
                conversationExpiresAtUnix: decoded.conversationExpiresAtUnix, expiresAtUnix: decoded.expiresAtUnix,
                expiresAfterUse: decoded.expiresAfterUse, emoji: decoded.emoji)
            let invite = try SignedInvite(signing: rebuilt, with: key)
            #expect(hexString(invite.payloadBytes) == vector.payload, "\(vector.name)")
            #expect(hexString(invite.serializedBytes()) == vector.signed_invite)
            #expect(InviteCode.encode(invite) == vector.slug)
            #expect(InviteLink.convosURL(code: InviteCode.encode(invite)) == vector.url)
        }
    }

    @Test func referenceSizesOfAMinimalInvite() throws {
        let vector = try PythonInviteVector.named("minimal")
        #expect(hex(vector.payload).count == 111)
        #expect(hex(vector.signed_invite).count == 180)
        #expect(hex(vector.signed_invite).prefix(2) == [0x0A, 0x6F])
        #expect(vector.slug.count == 240)
        #expect(!vector.slug.contains("*"))
    }

    @Test func roundTripAndSeparators() throws {
        let (invite, key) = try Self.makeInvite(conversationID: String(repeating: "z", count: 500))
        let code = InviteCode.encode(invite)
        #expect(code.contains("*"))
        for (index, piece) in code.split(separator: "*").enumerated() where index < code.split(separator: "*").count - 1 {
            #expect(piece.count == InviteLimits.separatorInterval)
        }
        let decoded = try InviteCode.decode(code)
        #expect(decoded == invite)
        try decoded.verify(expectedSigner: key.publicKey)
        #expect(try decoded.verifyInboxBinding().nonce == 0)
    }

    @Test func compressesOnlyWhenSmaller() throws {
        let (plain, _) = try Self.makeInvite()
        #expect(try Base64URL.decode(InviteCode.encode(plain).replacingOccurrences(of: "*", with: "")).first == 0x0A)
        let (repetitive, _) = try Self.makeInvite(description: String(repeating: "la ", count: 300))
        let frame = try Base64URL.decode(InviteCode.encode(repetitive))
        #expect(frame.first == 0x1F)
        #expect(frame.count < repetitive.serializedBytes().count)
        #expect(try InviteCode.decode(InviteCode.encode(repetitive)) == repetitive)
    }

    @Test func tamperedPayloadFailsVerification() throws {
        let (invite, key) = try Self.makeInvite(name: "club")
        var message = invite.serializedBytes()
        // Flip a byte inside the name ("club" -> "clua") within the payload: searched in the payload's bytes, which
        // come first, never in the random signature after them (a signature byte 'b' made this test flaky).
        let name = try #require(Self.range(of: Array("club".utf8), in: invite.payloadBytes))
        let start = try #require(Self.range(of: invite.payloadBytes, in: message)).lowerBound
        message[start + name.upperBound - 1] = UInt8(ascii: "a")
        let tampered = try SignedInvite(serialized: message)
        #expect(throws: InviteError.signerMismatch) { try tampered.verify(expectedSigner: key.publicKey) }
        #expect(throws: InviteError.inboxBindingFailed) { try tampered.verifyInboxBinding() }
    }

    /// The first occurrence of `needle` in `haystack`.
    static func range(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start..<(start + needle.count)
        }
        return nil
    }

    @Test func wrongKeyFailsVerification() throws {
        let (invite, _) = try Self.makeInvite()
        #expect(throws: InviteError.signerMismatch) {
            try invite.verify(expectedSigner: InviteSigningKey.generate().publicKey)
        }
    }

    @Test func expiry() throws {
        let (invite, _) = try Self.makeInvite(expiresAtUnix: Self.now - 1)
        #expect(throws: InviteError.inviteExpired(expiresAtUnix: Self.now - 1)) {
            try invite.payload.checkNotExpired(nowUnix: Self.now)
        }
        try invite.payload.checkNotExpired(nowUnix: Self.now - 1)
        let expired = try InviteCode.decode(PythonInviteVector.named("expired").slug)
        #expect(throws: InviteError.inviteExpired(expiresAtUnix: 1_700_000_000)) {
            try expired.payload.checkNotExpired(nowUnix: Self.now)
        }
        var exploded = invite.payload
        exploded.expiresAtUnix = nil
        exploded.conversationExpiresAtUnix = Self.now - 10
        #expect(throws: InviteError.conversationExpired(expiresAtUnix: Self.now - 10)) {
            try exploded.checkNotExpired(nowUnix: Self.now)
        }
    }

    @Test func garbageIsRejected() throws {
        #expect(throws: InviteError.codeTooShort(characters: 10, minimum: 50)) { try InviteCode.decode("CgRhYmNkEg") }
        #expect(throws: InviteError.invalidCodeCharacter(offset: 3)) {
            try InviteCode.decode("AAA+" + String(repeating: "A", count: 60))
        }
        #expect(throws: InviteError.invalidBase64URL) { try InviteCode.decode(String(repeating: "A", count: 61)) }
        let tooLong = String(repeating: "A", count: InviteLimits.maxCodeCharacters + 1)
        #expect(throws: InviteError.codeTooLong(characters: tooLong.utf8.count, maximum: InviteLimits.maxCodeCharacters)) {
            try InviteCode.decode(tooLong)
        }
        // 60 bytes of 0xFF is not a protobuf.
        #expect {
            try InviteCode.decode(Base64URL.encode([UInt8](repeating: 0xFF, count: 60)))
        } throws: { error in
            if case .malformedProtobuf = error as? InviteError { return true }
            return false
        }
    }

    @Test func truncatedProtobufIsRejected() throws {
        let (invite, _) = try Self.makeInvite()
        let bytes = invite.serializedBytes()
        for cut in [bytes.count - 1, bytes.count - 40, 60] {
            #expect(throws: InviteError.self) { try SignedInvite(serialized: bytes.prefix(cut)) }
        }
    }

    @Test func oversizedFieldsAreRejected() throws {
        let (invite, key) = try Self.makeInvite()
        // A 40-byte inbox id.
        var payload = invite.payloadBytes
        let inboxTag = 2 + Int(payload[1])
        #expect(payload[inboxTag] == 0x12)
        payload.replaceSubrange(inboxTag...(inboxTag + 33), with: [0x12, 40] + [UInt8](repeating: 7, count: 40))
        #expect(throws: InviteError.invalidInboxID(bytes: 40)) { try InvitePayload(serialized: payload) }
        // A SignedInvite over 1 MiB.
        let huge = [UInt8](repeating: 0x0A, count: InviteLimits.maxSignedInviteBytes + 1)
        #expect(throws: InviteError.signedInviteTooLarge(bytes: huge.count, limit: InviteLimits.maxSignedInviteBytes)) {
            try SignedInvite(serialized: huge)
        }
        // Kith refuses to write a tag that is not 10 alphanumerics.
        var bad = invite.payload
        bad.tag = "short"
        #expect(throws: InviteError.invalidTag("short")) { try SignedInvite(signing: bad, with: key) }
    }
}
