import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithPush

/// RFC 8291 Appendix A, byte for byte: every intermediate value and the final body.
@Suite struct WebPushVectorTests {
    struct Vector {
        let object: JSONObject
        func bytes(_ key: String) throws -> [UInt8] {
            let text = try #require(object[key]?.stringValue, "missing \(key)")
            return try Base64URL.decode(text)
        }
        var plaintext: [UInt8] { Array((object["plaintext_utf8"]?.stringValue ?? "").utf8) }
    }

    static func load() throws -> Vector {
        let data = try TestPaths.officialVector("rfc8291/appendix-a.json")
        let object = try #require(try CanonicalJSON.parse(Array(data)).objectValue)
        return Vector(object: object)
    }

    @Test func keyScheduleMatchesEveryIntermediateValue() throws {
        let vector = try Self.load()
        let senderKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try vector.bytes("as_private"))
        let receiver = try WebPushReceiverKeys(rawPrivateKey: try vector.bytes("ua_private"), authSecret: try vector.bytes("auth_secret"))
        #expect(receiver.publicKeyBytes == (try vector.bytes("ua_public")))
        #expect(Array(senderKey.publicKey.x963Representation) == (try vector.bytes("as_public")))

        let schedule = try WebPushKeySchedule(
            privateKey: senderKey, peerKey: receiver.privateKey.publicKey,
            uaPublic: try vector.bytes("ua_public"), asPublic: try vector.bytes("as_public"),
            authSecret: try vector.bytes("auth_secret"), salt: try vector.bytes("salt")
        )
        #expect(schedule.ecdhSecret == (try vector.bytes("ecdh_secret")))
        #expect(schedule.authPRK == (try vector.bytes("prk_key")))
        #expect(schedule.ikm == (try vector.bytes("ikm")))
        #expect(schedule.prk == (try vector.bytes("prk")))
        #expect(schedule.contentEncryptionKey == (try vector.bytes("cek")))
        #expect(schedule.nonce == (try vector.bytes("nonce")))
    }

    @Test func receiverSideDerivesTheSameSchedule() throws {
        let vector = try Self.load()
        let uaKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try vector.bytes("ua_private"))
        let asPublic = try P256.KeyAgreement.PublicKey(x963Representation: try vector.bytes("as_public"))
        let schedule = try WebPushKeySchedule(
            privateKey: uaKey, peerKey: asPublic,
            uaPublic: try vector.bytes("ua_public"), asPublic: try vector.bytes("as_public"),
            authSecret: try vector.bytes("auth_secret"), salt: try vector.bytes("salt")
        )
        #expect(schedule.contentEncryptionKey == (try vector.bytes("cek")))
        #expect(schedule.nonce == (try vector.bytes("nonce")))
    }

    @Test func encryptionReproducesTheBody() throws {
        let vector = try Self.load()
        let subscriber = try WebPushSubscriberKeys(p256dh: try vector.bytes("ua_public"), auth: try vector.bytes("auth_secret"))
        let senderKey = try P256.KeyAgreement.PrivateKey(rawRepresentation: try vector.bytes("as_private"))
        let body = try WebPushEncryption.encrypt(
            vector.plaintext, for: subscriber, padding: 0, recordSize: 4096,
            senderKey: senderKey, salt: try vector.bytes("salt")
        )
        #expect(body.count == 144)
        #expect(body == (try vector.bytes("body")))
    }

    @Test func decryptionRecoversThePlaintext() throws {
        let vector = try Self.load()
        let receiver = try WebPushReceiverKeys(rawPrivateKey: try vector.bytes("ua_private"), authSecret: try vector.bytes("auth_secret"))
        let plaintext = try WebPushDecryption.decrypt(try vector.bytes("body"), with: receiver)
        #expect(String(decoding: plaintext, as: UTF8.self) == "When I grow up, I want to be a watermelon")
    }

    @Test func headerFieldsAreTheRFCs() throws {
        let vector = try Self.load()
        var reader = ByteReader(try vector.bytes("body"))
        let header = try ContentCodingHeader.read(from: &reader)
        #expect(header.salt == (try vector.bytes("salt")))
        #expect(header.recordSize == 4096)
        #expect(header.keyID == (try vector.bytes("as_public")))
        #expect(header.encodedLength == PushLimits.webPushHeaderLength)
        #expect(reader.remaining == 144 - 86)
    }
}
