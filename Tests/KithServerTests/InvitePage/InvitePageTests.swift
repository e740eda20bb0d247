import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithInvites
import KithServer
import KithTestSupport
import Testing

@Suite("Invite page: GET /i/<code> and /v2?i=<code> decode the invite on the server")
struct InvitePageTests {
    /// 2026-11-24T00:00:00Z, the test server's clock.
    static let now: Int64 = 1_795_478_400

    /// A Kith-style invite: the creator id is a 32-byte feed id, signed with a fixed secp256k1 key.
    static func kithInvite(name: String? = "Garden club", description: String? = "Tomatoes & <friends>", expiresAt: Int64? = now + 3_600,
                           singleUse: Bool = true) throws -> String {
        let key = try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32))
        let creator = try InboxID(bytes: [UInt8](repeating: 0xA7, count: 32))
        let token = try ConversationToken.seal(
            conversationID: "kith-group-0123456789abcdef", creatorKey: key, creatorInboxID: creator, nonce: Array(0..<12))
        let payload = InvitePayload(
            conversationToken: token, creatorInboxID: creator, tag: "Gard3nClub", name: name, description: description,
            imageURL: "https://tracker.example/pixel.png", expiresAtUnix: expiresAt, expiresAfterUse: singleUse, emoji: "🍅")
        return InviteCode.encode(try SignedInvite(signing: payload, with: key))
    }

    /// A Convos-format vector made by the independent Python implementation.
    static func convosVector(_ name: String) throws -> (slug: String, address: String) {
        let data = try Data(contentsOf: TestPaths.officialVectors.appendingPathComponent("convos-invites/python-invites.json"))
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let vectors = try #require(root["vectors"] as? [[String: Any]])
        let vector = try #require(vectors.first { $0["name"] as? String == name })
        return (try #require(vector["slug"] as? String), try #require(vector["address"] as? String))
    }

    static func get(_ uri: String) async throws -> RESTAnswer {
        let (server, _, _) = try TestServer.make(clock: ManualServerClock(start: now * 1_000))
        return try await server.makeApplication().test(.router) { client in try await client.call(.get, uri) }
    }

    static func expectSecurityHeaders(_ answer: RESTAnswer) {
        #expect(answer.headers[.contentType] == "text/html; charset=utf-8")
        let policy = answer.headers[.contentSecurityPolicy] ?? ""
        #expect(policy.hasPrefix("default-src 'none'; style-src 'sha256-"))
        for directive in ["img-src 'none'", "script-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"] {
            #expect(policy.contains(directive))
        }
        #expect(!policy.contains("unsafe"))
        #expect(answer.headers[.xContentTypeOptions] == "nosniff")
        #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
        #expect(answer.headers[.cacheControl] == "no-store")
    }

    @Test("a Kith invite shows its fields, expiry, recovered signer, the app link and the command; the image is not loaded")
    func kithInvite() async throws {
        let code = try Self.kithInvite()
        let answer = try await Self.get("/i/\(code)")
        #expect(answer.status == 200)
        Self.expectSecurityHeaders(answer)
        let html = answer.text
        #expect(html.contains("<h1 id=\"name\">Garden club</h1>"))
        #expect(html.contains("Tomatoes &amp; &lt;friends&gt;"))
        #expect(html.contains("🍅"))
        #expect(html.contains("expires at 2026-11-24T01:00:00.000Z"))
        #expect(html.contains("single use"))
        let signer = try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32)).publicKey.address
        let address = "0x" + signer.map { String(format: "%02x", $0) }.joined()
        #expect(html.contains("recovers</span> signer <code>\(address)</code>"))
        #expect(html.contains("href=\"kith://invite/\(code)\""))
        #expect(html.contains("kith invite accept &#39;kith://invite/\(code)&#39;"))
        #expect(html.contains("does not load it"))
        #expect(!html.contains("tracker.example"))
        #expect(!html.lowercased().contains("<script"))
        #expect(!html.lowercased().contains("<img"))
    }

    @Test("a Convos-format invite through /v2?i= verifies with its inbox binding (nonce 1)")
    func convosInvite() async throws {
        let (slug, address) = try Self.convosVector("all-fields-nonce-1")
        let answer = try await Self.get("/v2?i=\(slug)")
        #expect(answer.status == 200)
        Self.expectSecurityHeaders(answer)
        #expect(answer.text.contains("<h1 id=\"name\">Book club</h1>"))
        #expect(answer.text.contains("🎭"))
        #expect(answer.text.contains("verifies</span>: signed by <code>0x\(address)</code>"))
        #expect(answer.text.contains("(nonce 1)"))
        #expect(answer.text.contains("expires at 2029-01-01T00:00:00.000Z"))
        let viaPath = try await Self.get("/i/\(slug)")
        #expect(viaPath.text == answer.text)
    }

    @Test("an expired invite says so, on the server's clock")
    func expired() async throws {
        let (slug, _) = try Self.convosVector("expired")
        let answer = try await Self.get("/i/\(slug)")
        #expect(answer.status == 200)
        #expect(answer.text.contains("<span class=\"bad\">expired</span> at 2023-11-14T22:13:20.000Z"))
        let kith = try await Self.get("/i/\(try Self.kithInvite(expiresAt: Self.now - 1))")
        #expect(kith.text.contains("<span class=\"bad\">expired</span>"))
        let forever = try await Self.get("/i/\(try Self.kithInvite(expiresAt: nil))")
        #expect(forever.text.contains("<dd id=\"expiry\">no expiry</dd>"))
    }

    @Test("malformed, short, over-long and missing codes answer a 400 page with the reason")
    func malformed() async throws {
        let short = try await Self.get("/i/abc")
        #expect(short.status == 400)
        Self.expectSecurityHeaders(short)
        #expect(short.text.contains("too short"))
        let badCharacter = try await Self.get("/i/" + String(repeating: "A", count: 60) + "%21")
        #expect(badCharacter.status == 400)
        #expect(badCharacter.text.contains("Not a valid invite"))
        let garbage = try await Self.get("/i/" + String(repeating: "A", count: 80))
        #expect(garbage.status == 400)
        #expect(garbage.text.contains("not a readable invite"))
        let long = try await Self.get("/v2?i=" + String(repeating: "A", count: 5_000))
        #expect(long.status == 400)
        #expect(long.text.contains("too long"))
        let missing = try await Self.get("/v2")
        #expect(missing.status == 400)
        #expect(missing.text.contains("no invite code"))
        var code = Array(try Self.kithInvite())
        code[code.count - 8] = code[code.count - 8] == "A" ? "B" : "A"
        let tampered = try await Self.get("/i/\(String(code))")
        let signer = try InviteSigningKey(rawRepresentation: [UInt8](repeating: 0x42, count: 32)).publicKey.address
        #expect(!tampered.text.contains(signer.map { String(format: "%02x", $0) }.joined()))
    }

    @Test("a script in the name or description is shown as text, never as markup")
    func injectedScript() async throws {
        let payload = "</h1><script>document.title='pwned';window.pwned=1</script><img src=x onerror=alert(1)>"
        let code = try Self.kithInvite(name: payload, description: "\"'><script>alert(1)</script>")
        let answer = try await Self.get("/i/\(code)")
        #expect(answer.status == 200)
        let html = answer.text.lowercased()
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(answer.text.contains("&lt;/h1&gt;&lt;script&gt;document.title=&#39;pwned&#39;"))
        #expect(answer.text.contains("&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test("the page is rate-limited per source like the REST endpoints")
    func rateLimited() async throws {
        var limits = TestServer.limits()
        limits.requestsPerSource = RateLimitRule(burst: 2, perSecond: 1)
        let (server, _, _) = try TestServer.make(limits: limits)
        let code = try Self.kithInvite()
        try await server.makeApplication().test(.router) { client in
            #expect(try await client.call(.get, "/i/\(code)").status == 200)
            #expect(try await client.call(.get, "/i/\(code)").status == 200)
            let limited = try await client.call(.get, "/i/\(code)")
            #expect(limited.status == 429)
            #expect(limited.headers[.retryAfter] != nil)
        }
    }
}
