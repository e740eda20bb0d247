import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

/// An invite's join code is public; offering it must not be (item: join-code squatting).
@Suite("Claimed join codes: only the holder of the secret can offer them")
struct ClaimedJoinCodeTests {
    static let secret = [UInt8](repeating: 7, count: 32)
    static let nonce = [UInt8](repeating: 1, count: 12)

    @Test("a create under a claimed code needs the secret it commits to; accepts need nothing new; ordinary codes are unchanged")
    func squattingRefused() async throws {
        let code = try #require(JoinCodeClaim.code(nonce: Self.nonce, secret: Self.secret))
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            // Mallory read the invite: she has the code, not the secret.
            let squat = try await client.create(code.text, "mallory")
            #expect(squat.status == 403)
            #expect(squat.json["error"] == "claim_required")
            let wrong = try await client.call(.post, "/api/rooms", #"{"joinid":"\#(code.text)","client1":"mallory","expiresInSeconds":60,"claim":"\#(JoinCodeClaim.claim(of: [UInt8](repeating: 8, count: 32)))"}"#)
            #expect(wrong.status == 403)
            let notAString = try await client.call(.post, "/api/rooms", #"{"joinid":"\#(code.text)","client1":"mallory","expiresInSeconds":60,"claim":5}"#)
            #expect(notAString.status == 400)
            // A look-alike under the prefix that is not a well-formed claimed code cannot be offered at all.
            #expect(try await client.create("kc1-" + String(repeating: "a", count: 20), "mallory").status == 403)
            // The creator, with the secret.
            let body = #"{"joinid":"\#(code.text)","client1":"creator","expiresInSeconds":60,"claim":"\#(JoinCodeClaim.claim(of: Self.secret))"}"#
            #expect(try await client.call(.post, "/api/rooms", body).status == 201)
            #expect(try await client.accept(code.text, "joiner").status == 200)
            #expect(try await client.create("123456", "inviso").status == 201)
        }
    }

    @Test("the code's form: 52 characters, the nonce readable, the claim verifying in constant time only for its secret")
    func form() throws {
        let code = try #require(JoinCodeClaim.code(nonce: Self.nonce, secret: Self.secret))
        #expect(code.text.count == 52)
        #expect(code.text.hasPrefix("kc1-"))
        #expect(JoinCodeClaim.isClaimed(code))
        #expect(JoinCodeClaim.nonce(of: code) == Self.nonce)
        #expect(JoinCodeClaim.verifies(claim: JoinCodeClaim.claim(of: Self.secret), for: code))
        #expect(!JoinCodeClaim.verifies(claim: JoinCodeClaim.claim(of: [UInt8](repeating: 9, count: 32)), for: code))
        #expect(!JoinCodeClaim.verifies(claim: "", for: code))
        #expect(JoinCodeClaim.code(nonce: [1], secret: Self.secret) == nil)
        #expect(!JoinCodeClaim.isClaimed(try #require(JoinCode("12345678"))))
    }
}
