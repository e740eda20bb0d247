import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import Testing

@Suite("Operations: /metrics, /health, /openapi.json")
struct OperationsEndpointTests {
    /// The value of the metric line starting with `series ` (name and labels), if present.
    static func value(_ exposition: String, _ series: String) -> Double? {
        for line in exposition.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test("metrics count created and accepted rooms and REST rejections by reason")
    func restMetrics() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            _ = try await client.pairedRoom()
            #expect(try await client.create("123456", "dev-a").status == 409)
            #expect(try await client.call(.post, "/api/rooms", "{").status == 400)
            #expect(try await client.call(.post, "/api/rooms", #"{"joinid":"123"}"#).status == 400)
            #expect(try await client.accept("999999", "dev-c").status == 404)
            #expect(try await client.call(.get, "/api/rooms/abc").status == 410)
            let answer = try await client.call(.get, "/metrics")
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = answer.text
            #expect(Self.value(text, "kith_rooms_created_total") == 1)
            #expect(Self.value(text, "kith_rooms_accepted_total") == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="conflict"}"#) == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="bad_request"}"#) == 2)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="not_found"}"#) == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="gone"}"#) == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="rate_limit"}"#) == 0)
            #expect(Self.value(text, "kith_relay_bytes_total") == 0)
            #expect(Self.value(text, "kith_connections_open") == 0)
        }
    }

    @Test("a rate-limited request counts as rate_limit; an oversize body as body_too_large")
    func limitMetrics() async throws {
        var limits = TestServer.limits()
        limits.requestsPerSource = RateLimitRule(burst: 2, perSecond: 0.001)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.router) { client in
            let huge = #"{"joinid":""# + String(repeating: "1", count: 70_000) + #""}"#
            #expect(try await client.call(.post, "/api/rooms", huge).status == 413)
            _ = try await client.create("123456", "dev-a")
            #expect(try await client.create("1234567", "dev-a").status == 429)
            let text = try await client.call(.get, "/metrics").text
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="rate_limit"}"#) == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="body_too_large"}"#) == 1)
        }
    }

    @Test("the relay's byte counter is exposed as kith_relay_bytes_total")
    func relayBytes() async throws {
        let (server, _, _) = try TestServer.make()
        server.metrics.recordRelayedBytes(1_500)
        server.metrics.recordRelayedBytes(0)
        server.metrics.recordRelayedBytes(-3)
        server.metrics.recordRelayedBytes(500)
        #expect(Self.value(server.metrics.registry.emitToString(), "kith_relay_bytes_total") == 2_000)
    }

    @Test("signaling metrics: open connections, relayed messages, bad messages and drops over the rate")
    func signalingMetrics() async throws {
        var limits = TestServer.limits()
        limits.messagesPerConnection = RateLimitRule(burst: 6, perSecond: 0.001)
        let (server, _, _) = try TestServer.make(limits: limits)
        try await server.makeApplication().test(.live) { client in
            let room = try #require(RoomID(try await client.pairedRoom()))
            let (alice, bob) = try await TestPeer.joinedPair(room, url: try SignalingFlowTests.url(client))
            try await alice.send(.signal(.offer(sdp: "v=0")))
            _ = try await bob.next()
            try await alice.sendText("not json")
            #expect(try await alice.next() == .error(SignalingText.invalidJSON))
            for _ in 0..<5 { try await alice.send(.ping) }
            var errors = 0
            for _ in 0..<5 {
                if try await alice.next() == .error(SignalingText.rateLimited) { errors += 1 }
            }
            let text = try await client.call(.get, "/metrics").text
            #expect(Self.value(text, "kith_connections_open") == 2)
            #expect(Self.value(text, "kith_connections_total") == 2)
            #expect(Self.value(text, "kith_signaling_messages_relayed_total") == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="signaling",reason="bad_message"}"#) == 1)
            #expect(Self.value(text, #"kith_rejections_total{surface="signaling",reason="rate_limit"}"#) == Double(errors))
            #expect(errors == 2)
            await alice.close()
            await bob.close()
        }
    }

    @Test("health answers 200 with the store reachable")
    func healthy() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.call(.get, "/health")
            #expect(answer.status == 200)
            #expect(answer.json == ["status": "ok", "store": "reachable", "connections": "0"])
        }
    }

    @Test("health answers 503 when the store fails; REST answers 500 internal_error and counts store_error")
    func unhealthy() async throws {
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "test-node")
        let server = RendezvousServer(configuration: configuration, store: FailingStore(), clock: ManualServerClock())
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.call(.get, "/health")
            #expect(answer.status == 503)
            #expect(answer.json == ["status": "unavailable", "store": "unreachable", "connections": "0"])
            let create = try await client.create("123456", "dev-a")
            #expect(create.status == 500)
            #expect(create.json == ["error": "internal_error"])
            let text = try await client.call(.get, "/metrics").text
            #expect(Self.value(text, #"kith_rejections_total{surface="rest",reason="store_error"}"#) == 1)
        }
    }

    @Test("/openapi.json is an OpenAPI 3.1 document naming every REST route the server registers")
    func openAPI() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.call(.get, "/openapi.json")
            #expect(answer.status == 200)
            #expect(answer.headers[.contentType]?.hasPrefix("application/json") == true)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let expected: [String: Set<String>] = [
                "/": ["get"], "/api/rooms": ["post", "get", "delete"], "/api/rooms/accept": ["post"], "/api/rooms/check": ["post"],
                "/api/user/purge": ["post"], "/api/turn-credentials": ["get"], "/api/rooms/{roomid}": ["get"],
                "/api/rooms/{roomid}/accept": ["post"], "/health": ["get"], "/metrics": ["get"], "/openapi.json": ["get"],
                // The push gateway and push service (docs/PUSH.md).
                "/api/v1/accounts/": ["get", "post"], "/api/v1/accounts/{username}/": ["get", "delete"],
                "/api/v1/device/apns/": ["get", "post"], "/api/v1/device/apns/{id}/": ["get", "put", "patch", "delete"],
                "/api/v1/device/gcm/": ["get", "post"], "/api/v1/device/gcm/{id}/": ["get", "put", "patch", "delete"],
                "/api/v1/device/webpush/": ["get", "post"], "/api/v1/device/webpush/{id}/": ["get", "put", "patch", "delete"],
                "/api/v1/tokens/": ["get", "post"], "/api/v1/tokens/{token}/": ["get", "delete"], "/api/v1/messages/": ["post"],
                "/push/subscriptions": ["post"], "/push/subscriptions/{secret}": ["delete"], "/push/{capability}": ["post"],
            ]
            #expect(Set(paths.keys) == Set(expected.keys))
            for (path, methods) in expected { #expect(Set(paths[path]?.keys.map { $0 } ?? []) == methods, "\(path)") }
        }
    }
}

@Suite("REST conformance found by schemathesis")
struct SchemathesisRegressionTests {
    @Test("a known path with a method it does not serve answers 405 with Allow (was 404); unknown paths stay 404")
    func methodNotAllowed() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let trace = try await client.call(.trace, "/")
            #expect(trace.status == 405)
            #expect(trace.headers[.allow] == "GET")
            #expect(trace.json == ["error": "method_not_allowed"])
            let put = try await client.call(.put, "/api/rooms", "{}")
            #expect(put.status == 405)
            #expect(put.headers[.allow] == "GET, POST, DELETE")
            #expect(try await client.call(.options, "/api/rooms/check").headers[.allow] == "POST")
            #expect(try await client.call(.delete, "/api/rooms/abc/accept").headers[.allow] == "POST")
            #expect(try await client.call(.post, "/health").headers[.allow] == "GET")
            #expect(try await client.call(.get, "/api/rooms/check").status == 405)
            #expect(try await client.call(.get, "/api/rooms/abc").status == 410)
            #expect(try await client.call(.get, "/nope").status == 404)
            #expect(try await client.call(.get, "/rooms").status == 404)
            let text = try await client.call(.get, "/metrics").text
            #expect(OperationsEndpointTests.value(text, #"kith_rejections_total{surface="rest",reason="other_client_error"}"#) == 6)
        }
    }

    @Test("purge: an array deviceIds wins and an unusable deviceId beside it is ignored, as /openapi.json now says")
    func purgePrecedence() async throws {
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.router) { client in
            let answer = try await client.call(.post, "/api/user/purge", #"{"deviceId":"","deviceIds":["0"]}"#)
            #expect(answer.status == 200)
            #expect(answer.json["deviceIdCount"] == "1")
            #expect(try await client.call(.post, "/api/user/purge", #"{"deviceId":"ok","deviceIds":[""]}"#).status == 400)
            #expect(try await client.call(.post, "/api/user/purge", #"{"deviceId":"ok","deviceIds":"x"}"#).status == 200)
        }
    }
}
