import Crypto
import Foundation
import KithCanonical
import KithPush
@testable import KithPushDelivery
import NIOHTTP1
import Testing

@Suite("Provider configuration loading and shared HTTP helpers")
struct ProviderConfigurationTests {
    @Test("VAPID keys load from PKCS#8 PEM, SEC 1 PEM and raw base64url; garbage is a typed error")
    func vapidKeyForms() throws {
        let key = P256.Signing.PrivateKey()
        let expected = key.publicKey.rawRepresentation
        #expect(try WebPushProviderConfiguration.vapidSigningKey(from: key.pemRepresentation).publicKey.rawRepresentation == expected)
        #expect(try WebPushProviderConfiguration.vapidSigningKey(from: " \(Base64URL.encode(key.rawRepresentation))\n").publicKey.rawRepresentation == expected)
        // A SEC 1 key as `openssl ecparam -genkey -name prime256v1 -noout` writes it (test-only key).
        let sec1 = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEILn2/OGG8B3YN3GEozMFP+6ubaooJABDgsUm9Iq/1DpcoAoGCCqGSM49
        AwEHoUQDQgAEuJwYgCDcssF6V8X7rIJ1G9EvvMf4F+ywqcO8ruIxeCIqxn+fnc1S
        5egi9kSRB9u6LkImKT27GltZFFWE2xCv9A==
        -----END EC PRIVATE KEY-----
        """
        let sec1Public = "04b89c188020dcb2c17a57c5fbac82751bd12fbcc7f817ecb0a9c3bcaee23178222ac67f9f9dcd52e5e822f6449107dbba2e4226293dbb1a5b59145584db10aff4"
        let loaded = try WebPushProviderConfiguration.vapidSigningKey(from: sec1)
        #expect(Hex.encode(Array(loaded.publicKey.x963Representation)) == sec1Public)
        for bad in ["", "not a key", Base64URL.encode([UInt8](repeating: 0, count: 32)), Base64URL.encode([UInt8](repeating: 1, count: 31)),
                    "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"] {
            #expect(throws: PushConfigurationError.self) { try WebPushProviderConfiguration.vapidSigningKey(from: bad) }
        }
    }

    @Test("VAPID subject and lifetimes are checked")
    func vapidSettings() throws {
        let signer = VAPIDSigner(signingKey: P256.Signing.PrivateKey())
        #expect(throws: Never.self) { try WebPushProviderConfiguration(signer: signer, subject: "https://kith.example/contact") }
        #expect(throws: Never.self) { try WebPushProviderConfiguration(signer: signer, subject: nil) }
        #expect(throws: PushConfigurationError.self) { try WebPushProviderConfiguration(signer: signer, subject: "ops@example.org") }
        #expect(throws: PushConfigurationError.self) { try WebPushProviderConfiguration(signer: signer, subject: nil, tokenLifetimeSeconds: 86_401) }
        #expect(throws: PushConfigurationError.self) { try WebPushProviderConfiguration(signer: signer, subject: nil, tokenLifetimeSeconds: 59) }
        #expect(throws: PushConfigurationError.self) {
            try WebPushProviderConfiguration(signer: signer, subject: nil, tokenLifetimeSeconds: 3_600, tokenRefreshMarginSeconds: 3_600)
        }
    }

    @Test("key files load; missing and oversized files are typed errors")
    func keyFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-push-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = P256.Signing.PrivateKey()
        let keyPath = directory.appendingPathComponent("vapid.pem").path
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        let loaded = try WebPushProviderConfiguration.load(vapidKeyFile: keyPath, subject: "mailto:a@b.example")
        #expect(loaded.signer.publicKey == Array(key.publicKey.x963Representation))
        #expect(loaded.endpointPolicy.allowPrivateAddresses == false)

        let apnsPath = directory.appendingPathComponent("AuthKey_ABC123DEFG.p8").path
        try key.pemRepresentation.write(toFile: apnsPath, atomically: true, encoding: .utf8)
        let apns = try APNsProviderConfiguration.load(keyFile: apnsPath, keyID: "ABC123DEFG", teamID: "TEAM123456", bundleID: "org.kith.App", environment: .sandbox)
        #expect(apns.host == "api.sandbox.push.apple.com")
        #expect(apns.port == 443)

        let bigPath = directory.appendingPathComponent("big.pem").path
        try String(repeating: "A", count: 70_000).write(toFile: bigPath, atomically: true, encoding: .utf8)
        #expect(throws: PushConfigurationError.fileTooLarge(path: bigPath, size: 70_000, limit: 65_536)) {
            try WebPushProviderConfiguration.load(vapidKeyFile: bigPath, subject: nil)
        }
        do throws(PushConfigurationError) {
            _ = try WebPushProviderConfiguration.load(vapidKeyFile: directory.appendingPathComponent("missing.pem").path, subject: nil)
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.code == "unreadable_file")
        }
    }

    @Test("Retry-After: delay seconds, HTTP dates, clamping and garbage")
    func retryAfter() {
        func parse(_ value: String?) -> Int? {
            var headers = HTTPHeaders()
            if let value { headers.add(name: "Retry-After", value: value) }
            return RetryAfter.seconds(in: headers, now: 784_111_777) // 1994-11-06 08:49:37 UTC
        }
        #expect(parse(nil) == nil)
        #expect(parse("120") == 120)
        #expect(parse("0") == 0)
        #expect(parse("99999999999999999999") == RetryAfter.maxSeconds)
        #expect(parse("Sun, 06 Nov 1994 08:50:37 GMT") == 60)
        #expect(parse("Sun, 06 Nov 1994 08:40:37 GMT") == 0)
        #expect(parse("-5") == nil)
        #expect(parse("soon") == nil)
    }

    @Test("the outcome of a Web Push status ignores response bodies and keeps reasons short")
    func webPushOutcomeReasons() {
        #expect(WebPushProvider.outcome(status: 204, headers: [:], now: 0) == .delivered)
        #expect(WebPushProvider.outcome(status: 301, headers: [:], now: 0) == .rejected(reason: "push service answered 301 (redirects are never followed)"))
        #expect(WebPushProvider.outcome(status: 408, headers: [:], now: 0) == .retryable(reason: "push service answered 408", retryAfterSeconds: nil))
        #expect(WebPushProvider.outcome(status: 418, headers: [:], now: 0) == .rejected(reason: "push service answered 418"))
    }
}
