import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithPush

/// Kith's own published push vectors (`TestVectors/push/`), checked independently by
/// `TestVectors/push/check_push_vectors.py` (Python `cryptography`).
///
/// `KITH_WRITE_VECTORS=1` rewrites them. The message vector is deterministic (fixed keys and salt);
/// ECDSA signatures are randomized, so the VAPID vector is only rewritten on request and otherwise
/// verified as stored.
@Suite struct PublishedPushVectorTests {
    static let messageURL = TestPaths.kithVectors.appendingPathComponent("push/aes128gcm-padded.json")
    static let vapidURL = TestPaths.kithVectors.appendingPathComponent("push/vapid.json")
    static let now: Int64 = 1_760_000_000

    /// Fixed test-only scalars (never use outside tests).
    static let uaPrivate = [UInt8](repeating: 0x11, count: 32)
    static let asPrivate = [UInt8](repeating: 0x22, count: 32)
    static let vapidPrivate = [UInt8](repeating: 0x33, count: 32)

    @Test func paddedMessageVectorMatches() throws {
        let auth = (0..<16).map { UInt8($0) }
        let salt = (16..<32).map { UInt8($0) }
        let receiver = try WebPushReceiverKeys(rawPrivateKey: Self.uaPrivate, authSecret: auth)
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.asPrivate)
        let plaintext = Array(#"{"token":"1daf13e01982d3029cf09ae3d027a62923f0f2b6"}"#.utf8)
        let body = try WebPushEncryption.encrypt(plaintext, for: receiver.subscriberKeys, padding: 37, recordSize: 256, senderKey: sender, salt: salt)
        let generated: JSONObject = [
            "description": "Kith aes128gcm Web Push message with 37 bytes of padding and rs 256; all values base64url",
            "ua_private": .string(Base64URL.encode(Self.uaPrivate)),
            "ua_public": .string(Base64URL.encode(receiver.publicKeyBytes)),
            "auth_secret": .string(Base64URL.encode(auth)),
            "as_private": .string(Base64URL.encode(Self.asPrivate)),
            "salt": .string(Base64URL.encode(salt)),
            "padding": 37,
            "record_size": 256,
            "plaintext": .string(Base64URL.encode(plaintext)),
            "body": .string(Base64URL.encode(body)),
        ]
        let stored = try TestPaths.publishedVector(at: Self.messageURL, generated: CanonicalJSON.serialize(generated))
        #expect(stored == CanonicalJSON.serialize(generated))
        #expect(try WebPushDecryption.decrypt(body, with: receiver) == plaintext)
    }

    @Test func vapidVectorVerifies() throws {
        let signer = VAPIDSigner(signingKey: try P256.Signing.PrivateKey(rawRepresentation: Self.vapidPrivate))
        if ProcessInfo.processInfo.environment["KITH_WRITE_VECTORS"] == "1" {
            let auth = try signer.authorization(pushResource: "http://127.0.0.1:18766/push/abc", subject: "mailto:ops@example.net", now: Self.now)
            let object: JSONObject = [
                "description": "Kith VAPID Authorization header (RFC 8292); verify at `now` with audience `audience`",
                "vapid_private": .string(Base64URL.encode(Self.vapidPrivate)),
                "audience": "http://127.0.0.1:18766",
                "now": .integer(Self.now),
                "authorization": .string(auth.headerValue),
            ]
            try FileManager.default.createDirectory(at: Self.vapidURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(CanonicalJSON.serialize(object) + [0x0A]).write(to: Self.vapidURL)
        }
        let object = try #require(try CanonicalJSON.parse(Array(try Data(contentsOf: Self.vapidURL))).objectValue)
        let header = try #require(object["authorization"]?.stringValue)
        let claims = try VAPIDVerifier(audience: "http://127.0.0.1:18766").verify(headerValue: header, now: Self.now, restrictedTo: signer.publicKey)
        #expect(claims.expiration == Self.now + 43_200)
        #expect(claims.subject == "mailto:ops@example.net")
    }
}
