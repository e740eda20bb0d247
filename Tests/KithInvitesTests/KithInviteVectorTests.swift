import Foundation
import KithCanonical
import KithIdentity
import KithInvites
import KithTestSupport
import Testing

/// `TestVectors/invites/kith-invites-v1.json`: Kith invites computed independently in Python
/// (`Interop/invites/kith_invite_vectors.py`, which also verifies and decrypts them); Kith must produce every byte.
struct KithInviteVectorTests {
    struct Vector: Decodable {
        let name: String
        let seed: String
        let feed_id: String
        let creator_inbox_id: String
        let invite_private_key: String
        let invite_public_key: String
        let group_id: String
        let token_nonce: String
        let token: String
        let payload: String
        let signature: String
        let signed_invite: String
        let code: String
        let url: String
        /// The preview fields, in the same shape as the Python-made Convos vectors.
        let fields: PythonInviteVector.Fields
        /// Kith's reach field (field 1000), on the "strangers" vector.
        let reach: Reach?

        struct Reach: Decodable {
            let compact_card: String
            let server: String
            let join_code: String
        }
    }

    static func vectors() throws -> [Vector] {
        let url = TestPaths.kithVectors.appendingPathComponent("invites/kith-invites-v1.json")
        return try JSONDecoder().decode([Vector].self, from: Data(contentsOf: url))
    }

    @Test func kithMakesEveryByteOfTheVectors() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 3)
        for vector in vectors {
            let seed = try Seed(bytes: hex(vector.seed))
            let key = try InviteSigningKey(seed: seed)
            #expect(hexString(key.rawRepresentation) == vector.invite_private_key)
            #expect(hexString(key.publicKey.compressed) == vector.invite_public_key)
            let feed = try Identity(seed: seed).feedID
            #expect(feed.string == vector.feed_id)
            let inbox = InboxID(feedID: feed)
            #expect(inbox.hex == vector.creator_inbox_id)
            let token = try ConversationToken.seal(conversationID: vector.group_id, creatorKey: key, creatorInboxID: inbox, nonce: hex(vector.token_nonce))
            #expect(hexString(token.bytes) == vector.token)
            let f = vector.fields
            let payload = InvitePayload(
                conversationToken: token, creatorInboxID: inbox, tag: f.tag, name: f.name, description: f.description,
                imageURL: f.imageURL, conversationExpiresAtUnix: f.conversationExpiresAtUnix, expiresAtUnix: f.expiresAtUnix,
                expiresAfterUse: f.expiresAfterUse ?? false, emoji: f.emoji,
                reach: vector.reach.map { InviteReach(compactCardBytes: hex($0.compact_card), server: $0.server, joinCode: $0.join_code) })
            try payload.checkKithBounds()
            if let reach = payload.reach {
                // Python's compact card verifies here and names this seed's identity: same keys, same feed.
                let card = try reach.compactCard()
                let identity = try Identity(seed: seed)
                #expect(card.feedID == feed)
                #expect(card.identityKey.rawRepresentation == identity.publicKeys.identityKey.rawRepresentation)
                #expect(card.dhKey.rawRepresentation == identity.publicKeys.dhKey.rawRepresentation)
            }
            let invite = try SignedInvite(signing: payload, with: key)
            #expect(hexString(invite.payloadBytes) == vector.payload, "\(vector.name)")
            #expect(hexString(invite.signature.bytes) == vector.signature, "\(vector.name)")
            #expect(hexString(invite.serializedBytes()) == vector.signed_invite)
            #expect(InviteCode.encode(invite) == vector.code)
            #expect(InviteLink.kithURL(code: vector.code) == vector.url)
            // And back: the link reads, the signer is the invite key, only the creator's key opens the token.
            let read = try InviteCode.decode(try InviteLink(parsing: vector.url).code)
            try read.verify(expectedSigner: key.publicKey)
            #expect(try read.payload.conversationToken.open(creatorKey: key, creatorInboxID: inbox) == vector.group_id)
            #expect(throws: InviteError.tokenAuthenticationFailed) {
                try read.payload.conversationToken.open(creatorKey: InviteSigningKey.generate(), creatorInboxID: inbox)
            }
        }
    }

    @Test func everyRejectionOfAVectorIsTyped() throws {
        let vector = try Self.vectors()[0]
        let signed = hex(vector.signed_invite)
        let code = vector.code
        // Truncated protobuf.
        #expect(throws: InviteError.self) { try SignedInvite(serialized: signed.dropLast(10)) }
        // Wrong recovery id: recovers another key, which the creator's check refuses.
        var sig = hex(vector.signature)
        sig[64] ^= 1
        let payload = hex(vector.payload)
        let flipped = try InviteSignature(sig)
        let key = try InviteSigningKey(seed: Seed(bytes: hex(vector.seed)))
        #expect(((try? flipped.recoverSigner(of: payload)).map { $0 == key.publicKey }) != true)
        // Recovery id out of range.
        sig[64] = 4
        #expect(throws: InviteError.invalidRecoveryID(4)) { try InviteSignature(sig) }
        // A tampered payload byte: the signature recovers another key.
        var tampered = try InviteCode.decode(code)
        var bytes = tampered.serializedBytes()
        bytes[10] ^= 0x01
        tampered = try SignedInvite(serialized: bytes)
        #expect(throws: InviteError.signerMismatch) { try tampered.verify(expectedSigner: key.publicKey) }
    }
}
