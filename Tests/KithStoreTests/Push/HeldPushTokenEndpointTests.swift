import KithFeed
import Testing
@testable import KithStore

/// Held tokens are kept with the gateway's API base, whatever form of endpoint the contact wrote.
@Suite("Held push tokens: the seed's knock-URL endpoint is held as the API base knocks go under")
struct HeldPushTokenEndpointTests {
    @Test("a token handed over with https://…/api/v1/message is taken with https://…/api/v1/, and the seed's array expiry is kept")
    func seedEndpointIsHeldAsTheAPIBase() throws {
        let store = try StoreFixtures.store()
        let peer = StoreFixtures.bob.feedID
        var content = PushTokens(endpoint: "https://push.chatsecure.org/api/v1/message", tokens: ["1daf13e01982d3029cf09ae3d027a62923f0f2b6"])
        content.dateExpiresPerToken = ["2026-12-24T10:00:00.000000Z"]
        #expect(try store.acceptPushTokens(content, from: peer).added == 1)
        let held = try #require(try store.takeHeldPushToken(from: peer, now: 1_700_000_000))
        #expect(held.endpoint == "https://push.chatsecure.org/api/v1/")
        #expect(held.expiresAt == 1_798_106_400)
    }
}
