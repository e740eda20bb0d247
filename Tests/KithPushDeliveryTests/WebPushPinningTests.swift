import AsyncHTTPClient
import Crypto
import KithPush
import KithPushDelivery
import Synchronization
import Testing

/// A pinned-client source for tests: records which address each host was pinned to and connects to the loopback mock
/// instead (tests never reach a public address).
final class RecordingPins: PinnedClientSource {
    let pins = Mutex<[(host: String, address: String)]>([])
    let loopback: PinnedHTTPClients

    init(loopback: PinnedHTTPClients) { self.loopback = loopback }

    func client(host: String, address: String) -> HTTPClient? {
        pins.withLock { $0.append((host, address)) }
        return loopback.client(host: host, address: "127.0.0.1")
    }
}

@Suite("Web Push connects to the address its SSRF check approved (no second DNS lookup: DNS rebinding)")
struct WebPushPinningTests {
    let receiver = WebPushReceiverKeys.generate()

    @Test("a checked name is delivered through a client pinned to the checked address; the name itself never resolves")
    func pinnedToTheCheckedAddress() async throws {
        // `push.pinned.test` resolves nowhere but in the fixed resolver (a public address): a delivery that looked the
        // name up again when connecting would fail; one pinned to the checked address reaches the mock.
        let resolver = FixedResolver(answers: ["push.pinned.test": [[93, 184, 216, 34]]])
        try await withMock(.http1, respond: { _ in .status(201) }) { server, client in
            let loopback = PinnedHTTPClients()
            let pins = RecordingPins(loopback: loopback)
            let configuration = try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: nil, hostResolver: resolver)
            let provider = WebPushProvider(configuration: configuration, httpClient: client, pinnedClients: pins)
            let outcome = await provider.deliver(PushNotification(
                target: .webPush(endpoint: "http://push.pinned.test:\(server.port)/push/x", keys: receiver.subscriberKeys),
                payload: Fixtures.knock, priority: .low, timeToLiveSeconds: 60))
            await loopback.shutdown()
            #expect(outcome == .delivered)
            #expect(pins.pins.withLock { $0.map { "\($0.host) \($0.address)" } } == ["push.pinned.test 93.184.216.34"])
            #expect(server.requests.count == 1)
        }
    }

    @Test("pinned clients: one per host and address, the least recently used shut down past the bound, none after shutdown")
    func pinnedClientsAreBounded() async throws {
        let clients = PinnedHTTPClients(maximumClients: 2)
        let first = try #require(clients.client(host: "a.example", address: "93.184.216.34"))
        #expect(clients.client(host: "a.example", address: "93.184.216.34") === first)
        _ = clients.client(host: "b.example", address: "93.184.216.35")
        _ = clients.client(host: "a.example", address: "93.184.216.34")
        _ = clients.client(host: "c.example", address: "2606:2800:0:0:0:0:0:1")
        #expect(clients.pins.map(\.host) == ["a.example", "c.example"])
        await clients.shutdown()
        #expect(clients.client(host: "a.example", address: "93.184.216.34") == nil)
    }
}
