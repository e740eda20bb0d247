import KithCanonical
import Testing
@testable import KithFeed

/// The token exchange JSON exactly as seed 001 writes it: `date_expires` as an array and the endpoint as the knock URL.
@Suite("push_tokens in the seed's own form: date_expires as an array, the endpoint as the knock URL")
struct PushTokensSeedFormTests {
    static let first = "1daf13e01982d3029cf09ae3d027a62923f0f2b6"
    static let second = "2daf13e01982d3029cf09ae3d027a62923f0f2b6"

    static func parse(_ json: String) throws(FeedError) -> PushTokens? {
        guard case .pushTokens(let content) = try Content.parse(Array(json.utf8), envelopeType: "push_tokens") else { return nil }
        return content
    }

    @Test("the seed's example with real times parses, holds the tokens until the earliest time, and keeps its bytes")
    func seedExample() throws {
        let json = #"{"date_expires":["2026-12-24T10:00:00.000000Z","2026-12-20T10:00:00.000000Z"],"endpoint":"https://push.chatsecure.org/api/v1/message","extra_data":"anything goes!","tokens":["\#(Self.first)","\#(Self.second)"],"type":"push_tokens"}"#
        let content = try #require(try Self.parse(json))
        #expect(content.expiresAt == 1_797_760_800)
        #expect(content.dateExpires == "2026-12-20T10:00:00.000000Z")
        #expect(content.apiBase == "https://push.chatsecure.org/api/v1/")
        #expect(try Content.pushTokens(content).canonicalBytes() == Array(json.utf8))
    }

    @Test("one time for all tokens in an array is accepted")
    func oneTimeForAll() throws {
        let json = #"{"date_expires":["2026-12-24T10:00:00.000000Z"],"endpoint":"https://p.example/api/v1/","tokens":["\#(Self.first)","\#(Self.second)"],"type":"push_tokens"}"#
        #expect(try Self.parse(json)?.expiresAt == 1_798_106_400)
    }

    @Test("an array that fits neither one time nor one per token, or the seed's format pattern itself, is refused with the reason")
    func refusals() {
        let endpoint = #""endpoint":"https://p.example/api/v1/""#
        let cases: [(String, String)] = [
            (#"{"date_expires":["2026-12-24T10:00:00.000000Z","2026-12-24T10:00:00.000000Z"],\#(endpoint),"tokens":["\#(Self.first)"],"type":"push_tokens"}"#, "one per token"),
            (#"{"date_expires":["yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z"],\#(endpoint),"tokens":["\#(Self.first)"],"type":"push_tokens"}"#, "format pattern"),
            (#"{"date_expires":[7],\#(endpoint),"tokens":["\#(Self.first)"],"type":"push_tokens"}"#, "strings"),
        ]
        for (json, reason) in cases {
            do {
                _ = try Self.parse(json)
                Issue.record("accepted: \(json)")
            } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }

    @Test("the API base: the knock route's segment is dropped, a trailing slash added", arguments: [
        ("https://push.chatsecure.org/api/v1/message", "https://push.chatsecure.org/api/v1/"),
        ("https://push.example/api/v1/messages/", "https://push.example/api/v1/"),
        ("https://push.example/api/v1/", "https://push.example/api/v1/"),
        ("https://push.example/api/v1", "https://push.example/api/v1/"),
    ])
    func apiBase(endpoint: String, base: String) {
        #expect(PushTokens(endpoint: endpoint, tokens: [Self.first]).apiBase == base)
    }
}
