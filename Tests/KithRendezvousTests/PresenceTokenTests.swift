import KithCanonical
import KithRendezvous
import Testing

@Suite("Presence tokens: the Inviso app's client1_token / client2_token with platform")
struct PresenceTokenTests {
    private func object(_ text: String) throws -> JSONObject {
        try RendezvousJSON.parseObject(Array(text.utf8), limits: RendezvousJSON.restLimits)
    }

    private static let apnsToken = String(repeating: "0123456789abcdef", count: 4)

    @Test("create and accept carry the token and platform the iOS app sends (APIClient.swift), and encode them back")
    func appBodies() throws {
        let create = try CreateRoomRequest(json: try object(
            #"{"joinid":"123456","expiresInSeconds":300,"client1":"A-1","client1_token":"\#(Self.apnsToken)","platform":"ios"}"#))
        #expect(create.presence == PresenceToken(platform: .ios, text: Self.apnsToken))
        #expect(create.json["client1_token"] == .string(Self.apnsToken))
        #expect(create.json["platform"] == .string("ios"))
        let accept = try AcceptRoomRequest(json: try object(#"{"joinid":"123456","client2":"B-2","client2_token":"fcm:AbC_d-1","platform":"android"}"#))
        #expect(accept.presence == PresenceToken(platform: .android, text: "fcm:AbC_d-1"))
        #expect(try AcceptRoomRequest(json: accept.json) == accept)
    }

    @Test("missing token, null, empty, a token without a known platform: no presence, as before")
    func lenient() throws {
        for body in [
            #"{"joinid":"123456","client2":"b"}"#,
            #"{"joinid":"123456","client2":"b","client2_token":null,"platform":"ios"}"#,
            #"{"joinid":"123456","client2":"b","client2_token":"","platform":"ios"}"#,
            #"{"joinid":"123456","client2":"b","client2_token":"abc"}"#,
            #"{"joinid":"123456","client2":"b","client2_token":"abc","platform":"windows"}"#,
            #"{"joinid":"123456","client2":"b","platform":"ios"}"#,
        ] {
            #expect(try AcceptRoomRequest(json: try object(body)).presence == nil, "\(body)")
        }
        #expect(try AcceptRoomRequest(json: try object(#"{"joinid":"123456","client2":"b","client2_token":"abc","platform":"IOS"}"#)).presence?.platform == .ios)
    }

    @Test("an oversized or odd token, or a platform that is not a short string, is refused by name")
    func bounded() throws {
        func error(_ body: String) throws -> String? {
            let parsed = try object(body)
            do throws(RendezvousCodecError) {
                _ = try CreateRoomRequest(json: parsed)
                return nil
            } catch {
                return error.code
            }
        }
        let base = #""joinid":"123456","client1":"a","expiresInSeconds":5"#
        let long = String(repeating: "a", count: RendezvousLimits.maximumPresenceTokenLength + 1)
        #expect(try error("{\(base),\"client1_token\":\"\(long)\",\"platform\":\"ios\"}") == "invalid_client1_token")
        #expect(try error("{\(base),\"client1_token\":\"has space\",\"platform\":\"ios\"}") == "invalid_client1_token")
        #expect(try error("{\(base),\"client1_token\":\"a/b\",\"platform\":\"ios\"}") == "invalid_client1_token")
        #expect(try error("{\(base),\"client1_token\":12,\"platform\":\"ios\"}") == "invalid_client1_token")
        #expect(try error("{\(base),\"client1_token\":\"abc\",\"platform\":7}") == "invalid_platform")
        #expect(try error("{\(base),\"client1_token\":\"abc\",\"platform\":\"\(String(repeating: "x", count: 33))\"}") == "invalid_platform")
        let longest = String(repeating: "a", count: RendezvousLimits.maximumPresenceTokenLength)
        #expect(try error("{\(base),\"client1_token\":\"\(longest)\",\"platform\":\"ios\"}") == nil)
    }

    @Test("a token's description never shows the token")
    func redacted() throws {
        let token = try #require(PresenceToken(platform: .ios, text: Self.apnsToken))
        #expect(!"\(token)".contains("0123"))
        #expect(!String(reflecting: token).contains("0123"))
    }

    @Test("ping_peer decodes; ping_sent is what the server answers")
    func pingPeer() throws {
        #expect(try ClientMessage(bytes: Array(#"{"type":"ping_peer"}"#.utf8)) == .pingPeer)
        #expect(ServerMessage.pingSent.text == #"{"type":"ping_sent"}"#)
        #expect(try ServerMessage(bytes: Array(#"{"type":"ping_sent"}"#.utf8)) == .pingSent)
        #expect(throws: RendezvousCodecError.self) { try ClientMessage(bytes: Array(#"{"type":"ping_sent"}"#.utf8)) }
    }
}
