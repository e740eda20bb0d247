import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import KithPush
import KithPushDelivery
import KithServer
import Synchronization
import Testing

/// An "internal" HTTP service on loopback, standing in for the operator's private network: it counts
/// the requests it gets and answers every one with `status`.
private final class InternalService: Sendable {
    private let count = Mutex(0)
    var hits: Int { count.withLock { $0 } }

    /// Runs the service on a free loopback port for the duration of `body`.
    static func run(answering status: HTTPResponse.Status, _ body: @Sendable (InternalService, Int) async throws -> Void) async throws {
        let service = InternalService()
        let router = Router()
        router.post("/internal") { _, _ -> Response in
            service.count.withLock { $0 += 1 }
            return Response(status: status)
        }
        let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await application.test(.live) { client in
            try await body(service, try #require(client.port))
        }
    }
}

/// Runs `body` with the HTTP client the providers of `kith serve` use, shut down afterwards.
private func withPushHTTPClient(_ body: (HTTPClient) async throws -> Void) async throws {
    let httpClient = PushHTTPSettings.makeHTTPClient()
    do {
        try await body(httpClient)
    } catch {
        try? await httpClient.shutdown()
        throw error
    }
    try await httpClient.shutdown()
}

/// The Web Push SSRF guard as `kith serve` wires it from ``ServerSettings``: one policy for registration and
/// delivery, off for private addresses whatever the bind address (issue 25, item 1).
@Suite("Push endpoint policy: no request into private networks from the default server, and no outcome to read")
struct PushEndpointPolicyTests {
    let keys = WebPushReceiverKeys.generate()

    private func body(_ endpoint: String) -> String {
        #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(keys.subscriberKeys.p256dhBase64URL)","auth":"\#(keys.subscriberKeys.authBase64URL)"}}"#
    }

    /// A push server with a real Web Push provider, both using `settings`' endpoint policy (as `kith serve`).
    private static func server(_ settings: ServerSettings, httpClient: HTTPClient) throws -> (server: RendezvousServer, store: SQLitePushStore) {
        let provider = WebPushProvider(
            configuration: try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: nil, endpointPolicy: settings.webPushEndpointPolicy,
                http: PushHTTPSettings(requestTimeout: .seconds(30))),
            httpClient: httpClient)
        let (server, store, _) = try PushTestServer.make(providers: [provider], webPushEndpointPolicy: settings.webPushEndpointPolicy)
        return (server, store)
    }

    @Test("default settings on loopback: a loopback endpoint is refused at registration; one already stored is never contacted and its device stays active")
    func defaultServerNeverReachesLoopback() async throws {
        let settings = try ServerSettings(flags: .init(), environment: [:])
        #expect(settings.host == "127.0.0.1")
        try await InternalService.run(answering: .notFound) { service, port in
            try await withPushHTTPClient { httpClient in
                let (server, store) = try Self.server(settings, httpClient: httpClient)
                try await server.makeApplication().test(.router) { client async throws in
                    let alice = try await client.pushAccount("alice")
                    let endpoint = "http://127.0.0.1:\(port)/internal"
                    let refused = try await client.push(.post, "/api/v1/device/webpush/", body(endpoint), token: alice)
                    #expect(refused.status == 400)
                    #expect(refused.text.contains("private_address"))

                    // A device stored before the check existed (or by an older version) with that endpoint.
                    let owner = try #require(try await store.account(username: "alice")).id
                    let device = PushDevice(
                        id: UUID().uuidString.lowercased(), owner: owner, kind: .webPush, name: nil, active: true, registrationID: endpoint,
                        p256dh: keys.subscriberKeys.p256dhBase64URL, auth: keys.subscriberKeys.authBase64URL, createdAt: 0)
                    _ = try await store.registerDevice(device, maximumPerAccount: 10)
                    let token = try #require(try await client.push(.post, "/api/v1/tokens/", #"{"webpush_device":"\#(device.id)"}"#, token: alice).string("token"))
                    for _ in 0..<2 {
                        #expect(try await client.knock(token).status == 202)
                        await server.pushDispatcher?.waitUntilIdle()
                    }
                    #expect(service.hits == 0, "the internal service was contacted")
                    let seen = try await client.push(.get, "/api/v1/device/webpush/\(device.id)/", token: alice)
                    #expect(seen.status == 200)
                    #expect(seen.object["active"] == .bool(true), "the device's state must not tell what the internal URL answered")
                    #expect(Set(seen.object.keys) == ["id", "name", "active", "date_created", "endpoint", "keys"])
                    #expect(server.pushMetrics?.count(.targetGone) == 0)
                    #expect(server.pushMetrics?.count(.retried) == 0)
                }
            }
        }
    }

    @Test("with --allow-private-push-endpoints (tests, trusted networks) a loopback endpoint registers and is delivered to")
    func operatorOptionAllowsLoopback() async throws {
        var flags = ServerSettings.Flags()
        flags.allowPrivatePushEndpoints = true
        let settings = try ServerSettings(flags: flags, environment: [:])
        try await InternalService.run(answering: .created) { service, port in
            try await withPushHTTPClient { httpClient in
                let (server, _) = try Self.server(settings, httpClient: httpClient)
                try await server.makeApplication().test(.router) { client async throws in
                    let alice = try await client.pushAccount("alice")
                    let created = try await client.push(.post, "/api/v1/device/webpush/", body("http://127.0.0.1:\(port)/internal"), token: alice)
                    #expect(created.status == 201)
                    let device = try #require(created.string("id"))
                    let token = try #require(try await client.push(.post, "/api/v1/tokens/", #"{"webpush_device":"\#(device)"}"#, token: alice).string("token"))
                    #expect(try await client.knock(token).status == 202)
                    await server.pushDispatcher?.waitUntilIdle()
                    #expect(service.hits == 1)
                    #expect(server.pushMetrics?.count(.delivered) == 1)
                }
            }
        }
    }
}
