import Foundation
import KithCanonical
import Testing
@testable import KithFeed

/// The `push_tokens` content type (docs/PUSH-CLIENT.md): strict parsing, each rejection named.
@Suite struct PushTokensContentTests {
    static let token = "1daf13e01982d3029cf09ae3d027a62923f0f2b6"

    static func parse(_ json: String) throws(FeedError) -> Content {
        try Content.parse(Array(json.utf8), envelopeType: "push_tokens")
    }

    static func rejects(_ json: String, _ fragment: String) {
        do {
            _ = try parse(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.description.contains(fragment), "\(error.description)")
        }
    }

    @Test func theSeedsShapeParsesAndRoundTrips() throws {
        let json = #"{"date_expires":"2026-12-24T10:00:00.000000Z","endpoint":"https://push.example/api/v1/","extra_data":"anything goes!","tokens":["\#(Self.token)"],"type":"push_tokens"}"#
        guard case .pushTokens(let content) = try Self.parse(json) else { Issue.record("not push_tokens"); return }
        #expect(content.tokens == [Self.token])
        #expect(content.endpoint == "https://push.example/api/v1/")
        #expect(content.extraData == "anything goes!")
        #expect(content.expiresAt == 1_798_106_400)
        #expect(try Content.pushTokens(content).canonicalBytes() == Array(json.utf8))
        #expect(Content.isKnownType("push_tokens"))
    }

    @Test func optionalFieldsMayBeAbsentOrNull() throws {
        let json = #"{"date_expires":null,"endpoint":"http://127.0.0.1:8080/api/v1/","tokens":["\#(Self.token)"],"type":"push_tokens"}"#
        guard case .pushTokens(let content) = try Self.parse(json) else { Issue.record("not push_tokens"); return }
        #expect(content.dateExpires == nil && content.extraData == nil && content.expiresAt == nil)
    }

    @Test func tokenRulesAreStrict() {
        let endpoint = #""endpoint":"https://p.example/api/v1/""#
        Self.rejects(#"{\#(endpoint),"tokens":[],"type":"push_tokens"}"#, "1...20")
        Self.rejects(#"{\#(endpoint),"type":"push_tokens"}"#, "1...20")
        let many = (0..<21).map { String(format: "%040x", $0) }.map { "\"\($0)\"" }.joined(separator: ",")
        Self.rejects(#"{\#(endpoint),"tokens":[\#(many)],"type":"push_tokens"}"#, "at most 20")
        Self.rejects(#"{\#(endpoint),"tokens":["\#(Self.token.uppercased())"],"type":"push_tokens"}"#, "lowercase hex")
        Self.rejects(#"{\#(endpoint),"tokens":["\#(Self.token.dropLast())"],"type":"push_tokens"}"#, "lowercase hex")
        Self.rejects(#"{\#(endpoint),"tokens":["\#(Self.token)","\#(Self.token)"],"type":"push_tokens"}"#, "repeat")
        Self.rejects(#"{\#(endpoint),"tokens":[7],"type":"push_tokens"}"#, "strings")
        Self.rejects(#"{\#(endpoint),"tokens":"\#(Self.token)","type":"push_tokens"}"#, "array")
    }

    @Test func endpointRulesAreStrict() {
        let tokens = #""tokens":["\#(Self.token)"]"#
        Self.rejects(#"{\#(tokens),"type":"push_tokens"}"#, "'endpoint' is required")
        Self.rejects(#"{"endpoint":"ftp://p.example/",\#(tokens),"type":"push_tokens"}"#, "http(s) URL")
        Self.rejects(#"{"endpoint":"https:// p.example/",\#(tokens),"type":"push_tokens"}"#, "http(s) URL")
        Self.rejects(#"{"endpoint":"https:///api",\#(tokens),"type":"push_tokens"}"#, "http(s) URL")
        let long = "https://p.example/" + String(repeating: "a", count: 600)
        Self.rejects(#"{"endpoint":"\#(long)",\#(tokens),"type":"push_tokens"}"#, "http(s) URL")
    }

    @Test func expiryAndExtraDataAreBounded() {
        let base = #""endpoint":"https://p.example/api/v1/","tokens":["\#(Self.token)"]"#
        for bad in ["tomorrow", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T00:00:00.Z", "2026-01-01T24:00:00Z"] {
            Self.rejects(#"{"date_expires":"\#(bad)",\#(base),"type":"push_tokens"}"#, "date_expires")
        }
        // The seed's array form is read (PushTokensSeedFormTests); its entries follow the same rule.
        Self.rejects(#"{"date_expires":["tomorrow"],\#(base),"type":"push_tokens"}"#, "date_expires")
        let long = String(repeating: "x", count: PushTokens.maxExtraDataScalars + 1)
        Self.rejects(#"{"extra_data":"\#(long)",\#(base),"type":"push_tokens"}"#, "extra_data")
    }

    @Test func timesParseAndFormatInTheGatewaysFormat() {
        #expect(PushTokens.parseTime("1970-01-01T00:00:00Z") == 0)
        #expect(PushTokens.parseTime("2000-02-29T12:34:56.123456Z") == 951_827_696)
        #expect(PushTokens.parseTime("2001-02-29T00:00:00Z") == nil)
        for seconds: Int64 in [0, 951_827_696, 1_798_106_400, 4_102_444_799] {
            #expect(PushTokens.parseTime(PushTokens.formatTime(seconds)) == seconds)
        }
        #expect(PushTokens.formatTime(1_798_106_400) == "2026-12-24T10:00:00.000000Z")
    }
}
