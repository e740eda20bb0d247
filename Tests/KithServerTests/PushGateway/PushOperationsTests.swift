import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithPushDelivery
import KithServer
import Logging
import Testing

@Suite("Push operations: metrics, logs without secrets, settings")
struct PushOperationsTests {
    @Test("/metrics counts knocks by outcome, deliveries by outcome, push messages stored and delivered, subscribers connected")
    func metrics() async throws {
        let apns = RecordingProvider(kind: .apns, script: [.targetGone(reason: "Unregistered")])
        let (server, _, _) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.live) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            _ = try await client.knock(token)
            _ = try await client.knock(WhitelistToken.generate().hex)
            _ = try await client.knock(token, priority: "nope")
            await server.pushDispatcher?.waitUntilIdle()
            let subscription = try await client.push(.post, "/push/subscriptions")
            let path = PushServiceTests.path(try #require(subscription.string("endpoint")))
            _ = try await client.pushBytes(path, [1], headers: PushServiceTests.headers())
            let subscriber = try await PushTestSubscriber.connect(port: try #require(client.port), secret: try #require(subscription.string("subscription")))
            _ = try await subscriber.next()
            let text = try await client.call(.get, "/metrics").text
            func value(_ series: String) -> Double? { OperationsEndpointTests.value(text, series) }
            #expect(value(#"kith_push_knocks_total{outcome="accepted"}"#) == 1)
            #expect(value(#"kith_push_knocks_total{outcome="not_found"}"#) == 1)
            #expect(value(#"kith_push_knocks_total{outcome="invalid"}"#) == 1)
            #expect(value(#"kith_push_knocks_total{outcome="rate_limited"}"#) == 0)
            #expect(value(#"kith_push_deliveries_total{outcome="target_gone"}"#) == 1)
            #expect(value(#"kith_push_deliveries_total{outcome="undeliverable"}"#) == 0)
            #expect(value("kith_push_messages_stored_total") == 1)
            #expect(value("kith_push_messages_delivered_total") == 1)
            #expect(value("kith_push_subscribers_connected") == 1)
            await subscriber.close()
        }
    }

    @Test("a whole gateway and push-service session logged at trace level leaks no token, password, registration id, capability, secret or endpoint")
    func noSecretsInLogs() async throws {
        let logs = CapturedLogs()
        let apns = RecordingProvider(kind: .apns, script: [.rejected(reason: "BadDeviceToken"), .targetGone(reason: "Unregistered")])
        let (server, _, _) = try PushTestServer.make(providers: [apns], logger: logs.logger)
        try await server.makeApplication().test(.live) { client in
            let password = "password-marker-4411"
            let registration = "registration-marker-7755"
            let created = try await client.push(.post, "/api/v1/accounts/", #"{"username":"logged","password":"\#(password)"}"#)
            let auth = try #require(created.string("token"))
            _ = try await client.push(.post, "/api/v1/accounts/", #"{"username":"logged","password":"wrong-\#(password)"}"#)
            let device = try await client.apnsDevice(token: auth, registration: registration)
            let token = try await client.whitelistToken(token: auth, device: device)
            _ = try await client.knock(token, data: "data-marker-1234")
            _ = try await client.knock(token)
            await server.pushDispatcher?.waitUntilIdle()
            _ = try await client.push(.get, "/api/v1/tokens/\(token)/", token: auth)
            _ = try await client.push(.delete, "/api/v1/tokens/\(token)/", token: auth)
            _ = try await client.knock(token)
            let subscription = try await client.push(.post, "/push/subscriptions")
            let endpoint = try #require(subscription.string("endpoint"))
            let secret = try #require(subscription.string("subscription"))
            let capability = String(endpoint.split(separator: "/").last ?? "")
            _ = try await client.pushBytes(PushServiceTests.path(endpoint), [1], headers: PushServiceTests.headers(ttl: nil))
            _ = try await client.pushBytes(PushServiceTests.path(endpoint), [1], headers: PushServiceTests.headers())
            let subscriber = try await PushTestSubscriber.connect(port: try #require(client.port), secret: secret)
            _ = try await subscriber.next()
            await subscriber.close()
            _ = try await client.push(.delete, "/push/subscriptions/\(secret)")
            _ = try await client.pushBytes(PushServiceTests.path(endpoint), [1], headers: PushServiceTests.headers())
            let lines = logs.all
            #expect(lines.contains { $0.contains("rejected") })
            for secretText in [password, registration, auth, token, "data-marker-1234", capability, secret, device] {
                #expect(!lines.contains { $0.contains(secretText) }, "a log line contains \(secretText)")
            }
        }
    }

    @Test("--public-url and --push-token-lifetime: flags win over variables; bad values are refused")
    func settings() throws {
        var flags = ServerSettings.Flags()
        let defaults = try ServerSettings(flags: flags, environment: [:])
        #expect(defaults.publicURL == nil)
        #expect(defaults.pushLimits.tokenLifetimeSeconds == 30 * 86_400)
        let fromEnvironment = try ServerSettings(flags: flags, environment: [
            "KITH_SERVE_PUBLIC_URL": "https://push.example.org/", "KITH_SERVE_PUSH_TOKEN_LIFETIME": "7200",
        ])
        #expect(fromEnvironment.publicURL == "https://push.example.org")
        #expect(fromEnvironment.pushLimits.tokenLifetimeSeconds == 7_200)
        flags.publicURL = "http://127.0.0.1:9000/base"
        flags.pushTokenLifetimeSeconds = 3_600
        let fromFlags = try ServerSettings(flags: flags, environment: ["KITH_SERVE_PUBLIC_URL": "https://other.example"])
        #expect(fromFlags.publicURL == "http://127.0.0.1:9000/base")
        #expect(fromFlags.pushLimits.tokenLifetimeSeconds == 3_600)
        for bad in ["ftp://x", "https://", "https://user@host", "https://h/?q", "push.example.org"] {
            var flags = ServerSettings.Flags()
            flags.publicURL = bad
            #expect(throws: ServerSettingsError.invalidPublicURL) { try ServerSettings(flags: flags, environment: [:]) }
        }
        var short = ServerSettings.Flags()
        short.pushTokenLifetimeSeconds = 60
        #expect(throws: ServerSettingsError.self) { try ServerSettings(flags: short, environment: [:]) }
    }

    @Test("a configured public URL is the endpoints' base and the VAPID audience")
    func publicURL() async throws {
        let (server, _, clock) = try PushTestServer.make()
        let signer = VAPIDSigner(signingKey: .init())
        try await server.makeApplication().test(.router) { client in
            let key = Base64URL.encode(signer.signingKey.publicKey.x963Representation)
            let subscription = try await client.push(.post, "/push/subscriptions", #"{"vapid_key":"\#(key)"}"#)
            let endpoint = try #require(subscription.string("endpoint"))
            #expect(endpoint.hasPrefix("http://push.test:8443/push/"))
            var headers = PushServiceTests.headers()
            headers[.authorization] = try signer.authorization(pushResource: endpoint, subject: nil, now: clock.nowMilliseconds() / 1_000).headerValue
            #expect(try await client.pushBytes(PushServiceTests.path(endpoint), [1], headers: headers).status == 201)
        }
    }
}
