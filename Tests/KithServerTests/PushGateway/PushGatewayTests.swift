import Foundation
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithPushDelivery
import KithServer
import Testing

@Suite("Push gateway /api/v1/: ChatSecure-Push's accounts, devices and tokens with its defects fixed")
struct PushGatewayTests {
    @Test("create 201 with a 40-hex token; the same name and password logs in (200, a fresh token, the old one revoked); a wrong password 401")
    func accounts() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let created = try await client.push(.post, "/api/v1/accounts/", #"{"username":"alice","password":"pw1","email":"a@example.org"}"#)
            #expect(created.status == 201)
            let first = try #require(created.string("token"))
            #expect(first.count == 40 && first.allSatisfy(\.isHexDigit))
            #expect(created.string("username") == "alice" && created.string("email") == "a@example.org")
            let id = try #require(created.string("id"))
            let login = try await client.push(.post, "/api/v1/accounts", #"{"username":"alice","password":"pw1"}"#)
            #expect(login.status == 200)
            #expect(login.string("id") == id)
            let second = try #require(login.string("token"))
            #expect(second != first)
            #expect(try await client.push(.get, "/api/v1/accounts/", token: first).status == 401)
            #expect(try await client.push(.get, "/api/v1/accounts/", token: second).string("username") == "alice")
            let before = try await store.account(username: "alice")
            let wrong = try await client.push(.post, "/api/v1/accounts/", #"{"username":"alice","password":"nope"}"#)
            #expect(wrong.status == 401)
            #expect(wrong.text == #"{"error":"Invalid credentials"}"#)
            #expect(try await store.account(username: "alice") == before)
        }
    }

    @Test("logins to one username are limited whatever the source; the limited attempt hashes nothing and changes nothing")
    func loginsPerUsername() async throws {
        var limits = PushTestServer.limits()
        limits.loginsPerUsername = RateLimitRule(burst: 3, perSecond: 1.0 / 60)
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            _ = try await client.pushAccount("carol", password: "right")
            for _ in 0..<3 {
                #expect(try await client.push(.post, "/api/v1/accounts/", #"{"username":"carol","password":"wrong"}"#).status == 401)
            }
            let before = try await store.account(username: "carol")
            let limited = try await client.push(.post, "/api/v1/accounts/", #"{"username":"carol","password":"right"}"#)
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] != nil)
            #expect(try await store.account(username: "carol") == before)
            // Another username is not affected.
            _ = try await client.pushAccount("dave", password: "pw")
        }
    }

    @Test("the gateway holds at most maximumAccounts accounts: the next creation is 503 and stores nothing; logins still work")
    func accountsAreBoundedInTotal() async throws {
        var limits = PushTestServer.limits()
        limits.maximumAccounts = 2
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            _ = try await client.pushAccount("one", password: "pw")
            _ = try await client.pushAccount("two", password: "pw")
            let full = try await client.push(.post, "/api/v1/accounts/", #"{"username":"three","password":"pw"}"#)
            #expect(full.status == 503)
            #expect(full.headers[.retryAfter] == "3600")
            #expect(try await store.account(username: "three") == nil)
            #expect(try await store.accountCount() == 2)
            #expect(try await client.push(.post, "/api/v1/accounts/", #"{"username":"one","password":"pw"}"#).status == 200)
        }
    }

    @Test("password hashing has a concurrency cap: beyond it, 429 with Retry-After 1 and no account")
    func passwordHashingIsCapped() async throws {
        var limits = PushTestServer.limits()
        limits.concurrentPasswordHashes = 0
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            let busy = try await client.push(.post, "/api/v1/accounts/", #"{"username":"erin","password":"pw"}"#)
            #expect(busy.status == 429)
            #expect(busy.headers[.retryAfter] == "1")
            #expect(try await store.account(username: "erin") == nil)
        }
    }

    @Test("the password is stored as a PBKDF2 record, never in clear; the API token only as a digest")
    func storedHashed() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let token = try await client.pushAccount("bob", password: "correct horse")
            let account = try #require(try await store.account(username: "bob"))
            #expect(account.passwordRecord.hasPrefix("pbkdf2_sha256$1000$"))
            #expect(!account.passwordRecord.contains("correct horse"))
            #expect(account.authDigest.count == 32)
            #expect(Hex.encode(account.authDigest) != token)
        }
    }

    @Test("validation: 400 with DRF's {field:[messages]}, nothing created")
    func accountValidation() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let missing = try await client.push(.post, "/api/v1/accounts/", #"{"password":"x"}"#)
            #expect(missing.status == 400)
            #expect(missing.text == #"{"username":["This field is required."]}"#)
            let long = try await client.push(.post, "/api/v1/accounts/", #"{"username":"\#(String(repeating: "a", count: 31))","password":"x"}"#)
            #expect(long.status == 400)
            #expect(try await client.push(.post, "/api/v1/accounts/", #"{"username":"a b","password":"x"}"#).status == 400)
            #expect(try await client.push(.post, "/api/v1/accounts/", #"{"username":"ab","password":"\#(String(repeating: "p", count: 101))"}"#).status == 400)
            #expect(try await client.push(.post, "/api/v1/accounts/", #"{"username":"ab","password":"x","email":"nope"}"#).status == 400)
            #expect(try await client.push(.post, "/api/v1/accounts/", "[1]").status == 400)
            #expect(try await client.push(.post, "/api/v1/accounts/", "{oops").status == 400)
            let huge = try await client.push(.post, "/api/v1/accounts/", #"{"username":"ab","password":"\#(String(repeating: "p", count: 9_000))"}"#)
            #expect(huge.status == 413)
            #expect(try await store.account(username: "ab") == nil)
        }
    }

    @Test("auth: no header, a bad scheme or an unknown token answer 401")
    func authentication() async throws {
        let (server, _, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            #expect(try await client.push(.get, "/api/v1/accounts/").status == 401)
            #expect(try await client.push(.get, "/api/v1/tokens/", token: String(repeating: "0", count: 40)).status == 401)
            #expect(try await client.push(.get, "/api/v1/tokens/", token: "zz").status == 401)
            #expect(try await client.push(.get, "/api/v1/device/apns/", headers: [.authorization: "Bearer abc"]).status == 401)
        }
    }

    @Test("retrieve and delete: 200/204 for one's own account, 403 for another's, 404 for none; delete cascades devices and tokens")
    func retrieveAndDelete() async throws {
        let (server, store, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            _ = try await client.pushAccount("bob")
            #expect(try await client.push(.get, "/api/v1/accounts/alice/", token: alice).status == 200)
            #expect(try await client.push(.get, "/api/v1/accounts/bob/", token: alice).status == 403)
            #expect(try await client.push(.get, "/api/v1/accounts/carol/", token: alice).status == 404)
            #expect(try await client.push(.delete, "/api/v1/accounts/bob/", token: alice).status == 403)
            #expect(try await store.account(username: "bob") != nil)
            let device = try await client.apnsDevice(token: alice)
            let whitelist = try await client.whitelistToken(token: alice, device: device)
            #expect(try await client.push(.delete, "/api/v1/accounts/alice/", token: alice).status == 204)
            #expect(try await store.account(username: "alice") == nil)
            #expect(try await store.knockTargets(tokenDigest: try WhitelistToken(hex: whitelist).storageDigest, now: clock.nowMilliseconds()) == nil)
            #expect(try await client.knock(whitelist).status == 404)
        }
    }

    @Test("devices: 201 then 200 for the same registration id (idempotent, reactivated); list is an array; others' devices are 404")
    func devices() async throws {
        let (server, store, _) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            let bob = try await client.pushAccount("bob")
            let created = try await client.push(.post, "/api/v1/device/apns/", #"{"registration_id":"ab cd ef","name":"phone","active":false}"#, token: alice)
            #expect(created.status == 201)
            #expect(created.string("registration_id") == "abcdef")
            #expect(created.object["active"] == .bool(false))
            #expect(created.object["device_id"] == .null)
            let id = try #require(created.string("id"))
            #expect(created.string("date_created")?.hasSuffix("Z") == true)
            let again = try await client.push(.post, "/api/v1/device/apns/", #"{"registration_id":"abcdef"}"#, token: alice)
            #expect(again.status == 200)
            #expect(again.string("id") == id)
            #expect(again.object["active"] == .bool(true))
            #expect(again.string("name") == "phone")
            let list = try await client.push(.get, "/api/v1/device/apns/", token: alice)
            #expect(list.array.count == 1)
            #expect(try await client.push(.get, "/api/v1/device/gcm/", token: alice).array.isEmpty)
            #expect(try await client.push(.get, "/api/v1/device/apns/\(id)/", token: bob).status == 404)
            #expect(try await client.push(.delete, "/api/v1/device/apns/\(id)/", token: bob).status == 404)
            #expect(try await client.push(.put, "/api/v1/device/apns/\(id)/", #"{"registration_id":"ffff"}"#, token: bob).status == 404)
            #expect(try await client.push(.get, "/api/v1/device/apns/not-a-uuid/", token: alice).status == 404)
            let patched = try await client.push(.patch, "/api/v1/device/apns/\(id)/", #"{"name":"tablet"}"#, token: alice)
            #expect(patched.string("name") == "tablet" && patched.string("registration_id") == "abcdef")
            let put = try await client.push(.put, "/api/v1/device/apns/\(id)/", #"{"registration_id":"0011"}"#, token: alice)
            #expect(put.string("registration_id") == "0011" && put.object["name"] == .null)
            #expect(try await client.push(.post, "/api/v1/device/apns/", #"{}"#, token: alice).text == #"{"registration_id":["This field is required."]}"#)
            #expect(try await client.push(.delete, "/api/v1/device/apns/\(id)/", token: alice).status == 204)
            #expect(try await store.devices(owner: try #require(try await store.account(username: "alice")).id, kind: .apns).isEmpty)
        }
    }

    @Test("a Web Push device takes the W3C PushSubscription JSON; bad keys or endpoints are 400")
    func webPushDevice() async throws {
        let (server, _, _) = try PushTestServer.make()
        let keys = WebPushReceiverKeys.generate()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount()
            let body = #"{"endpoint":"https://push.example/p/abc","keys":{"p256dh":"\#(keys.subscriberKeys.p256dhBase64URL)","auth":"\#(keys.subscriberKeys.authBase64URL)"},"expirationTime":null}"#
            let created = try await client.push(.post, "/api/v1/device/webpush/", body, token: alice)
            #expect(created.status == 201)
            #expect(created.string("endpoint") == "https://push.example/p/abc")
            #expect(created.object["keys"]?.objectValue?["auth"]?.stringValue == keys.subscriberKeys.authBase64URL)
            #expect(try await client.push(.post, "/api/v1/device/webpush/", body, token: alice).status == 200)
            let badKey = #"{"endpoint":"https://push.example/p/abc","keys":{"p256dh":"AAAA","auth":"\#(keys.subscriberKeys.authBase64URL)"}}"#
            #expect(try await client.push(.post, "/api/v1/device/webpush/", badKey, token: alice).status == 400)
            let badEndpoint = #"{"endpoint":"ftp://x/y","keys":{"p256dh":"\#(keys.subscriberKeys.p256dhBase64URL)","auth":"\#(keys.subscriberKeys.authBase64URL)"}}"#
            #expect(try await client.push(.post, "/api/v1/device/webpush/", badEndpoint, token: alice).status == 400)
            #expect(try await client.push(.get, "/api/v1/device/webpush/", token: alice).array.count == 1)
        }
    }

    @Test("with the provider's endpoint policy, a Web Push endpoint on a private address is refused at registration and not stored")
    func webPushEndpointPolicyAtRegistration() async throws {
        let (server, store, _) = try PushTestServer.make(webPushEndpointPolicy: WebPushEndpointPolicy())
        let keys = WebPushReceiverKeys.generate()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            let keysJSON = #""keys":{"p256dh":"\#(keys.subscriberKeys.p256dhBase64URL)","auth":"\#(keys.subscriberKeys.authBase64URL)"}"#
            for endpoint in ["http://10.0.0.1/push/x", "http://127.0.0.1:7460/push/x", "http://169.254.169.254/latest"] {
                let refused = try await client.push(.post, "/api/v1/device/webpush/", #"{"endpoint":"\#(endpoint)",\#(keysJSON)}"#, token: alice)
                #expect(refused.status == 400 && refused.text.contains("endpoint"))
            }
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.devices(owner: owner, kind: .webPush).isEmpty)
            #expect(try await client.push(.post, "/api/v1/device/webpush/", #"{"endpoint":"https://push.example/p/abc",\#(keysJSON)}"#, token: alice).status == 201)
        }
    }

    @Test("at most devicesPerAccount devices; the next is refused with 400 and not stored")
    func deviceLimit() async throws {
        var limits = PushTestServer.limits()
        limits.devicesPerAccount = 2
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            _ = try await client.apnsDevice(token: alice, registration: "aa")
            _ = try await client.apnsDevice(token: alice, registration: "bb")
            let third = try await client.push(.post, "/api/v1/device/gcm/", #"{"registration_id":"cc"}"#, token: alice)
            #expect(third.status == 400)
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.devices(owner: owner, kind: .fcm).isEmpty)
            #expect(try await client.push(.post, "/api/v1/device/apns/", #"{"registration_id":"aa"}"#, token: alice).status == 200)
        }
    }

    @Test("tokens: one (201 object) or a batch (201 results); list {results} with each token derived again; get; revoke 204 then 404")
    func tokens() async throws {
        let (server, store, clock) = try PushTestServer.make()
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            let device = try await client.apnsDevice(token: alice)
            let one = try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","name":"for bob"}"#, token: alice)
            #expect(one.status == 201)
            let token = try #require(one.string("token"))
            #expect(try WhitelistToken(hex: token).hex == token)
            #expect(one.string("apns_device") == device && one.string("name") == "for bob")
            #expect(one.string("date_expires") == GatewayTimeProbe.text(clock.nowMilliseconds() + 30 * 86_400_000))
            let batch = try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","count":5}"#, token: alice)
            #expect(batch.status == 201)
            let results = try #require(batch.object["results"]?.arrayValue)
            #expect(results.count == 5)
            #expect(results.allSatisfy { $0.objectValue?["name"] == nil && $0.objectValue?["token"]?.stringValue?.count == 40 })
            let list = try await client.push(.get, "/api/v1/tokens/", token: alice)
            let listed = try #require(list.object["results"]?.arrayValue)
            #expect(listed.count == 6)
            let created = Set([token] + results.compactMap { $0.objectValue?["token"]?.stringValue })
            #expect(Set(listed.compactMap { $0.objectValue?["token"]?.stringValue }) == created)
            #expect(list.object["earlier_results"]?.arrayValue == [] && list.object["webpush_results"]?.arrayValue == [])
            #expect(try await client.push(.get, "/api/v1/tokens/\(token)/", token: alice).string("token") == token)
            let bob = try await client.pushAccount("bob")
            #expect(try await client.push(.get, "/api/v1/tokens/\(token)/", token: bob).status == 404)
            #expect(try await client.push(.delete, "/api/v1/tokens/\(token)/", token: bob).status == 404)
            #expect(try await client.knock(token).status == 202)
            #expect(try await client.push(.delete, "/api/v1/tokens/\(token)/", token: alice).status == 204)
            #expect(try await client.push(.delete, "/api/v1/tokens/\(token)/", token: alice).status == 404)
            #expect(try await client.knock(token).status == 404)
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.tokens(owner: owner).count == 5)
        }
    }

    @Test("token creation refusals: no device, two devices, another's device, a bad count, over the per-account bound; nothing stored")
    func tokenRefusals() async throws {
        var limits = PushTestServer.limits()
        limits.tokensPerAccount = 3
        let (server, store, _) = try PushTestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client async throws in
            let alice = try await client.pushAccount("alice")
            let bob = try await client.pushAccount("bob")
            let device = try await client.apnsDevice(token: alice)
            let bobDevice = try await client.apnsDevice(token: bob)
            #expect(try await client.push(.post, "/api/v1/tokens/", "{}", token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","gcm_device":"\#(device)"}"#, token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(bobDevice)"}"#, token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"gcm_device":"\#(device)"}"#, token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","count":21}"#, token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","count":0}"#, token: alice).status == 400)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)"}"#).status == 401)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","count":4}"#, token: alice).status == 400)
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.tokens(owner: owner).isEmpty)
            #expect(try await client.push(.post, "/api/v1/tokens/", #"{"apns_device":"\#(device)","count":3}"#, token: alice).status == 201)
        }
    }
}

/// The gateway's time format, recomputed independently (Foundation) for assertions.
enum GatewayTimeProbe {
    static func text(_ milliseconds: Int64) -> String {
        let formatter = DateFormatterBox.formatter
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
        return formatter.string(from: date) + String(format: ".%06dZ", Int(milliseconds % 1_000) * 1_000)
    }
}

enum DateFormatterBox {
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }()
}
