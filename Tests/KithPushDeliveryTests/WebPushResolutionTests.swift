import AsyncHTTPClient
import Crypto
import KithPush
import KithPushDelivery
import Testing

/// A resolver with fixed answers (tests never use DNS).
struct FixedResolver: WebPushHostResolver {
    let answers: [String: [[UInt8]]]

    struct NotFound: Error {}

    func addresses(of host: String) async throws -> [[UInt8]] {
        guard let addresses = answers[host] else { throw NotFound() }
        return addresses
    }
}

@Suite("Web Push SSRF guard on resolved DNS names")
struct WebPushResolutionTests {
    let receiver = WebPushReceiverKeys.generate()

    func outcome(host: String, resolver: FixedResolver, client: HTTPClient) async throws -> PushDeliveryOutcome {
        let configuration = try WebPushProviderConfiguration(
            signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: nil, hostResolver: resolver
        )
        let provider = WebPushProvider(configuration: configuration, httpClient: client)
        return await provider.deliver(PushNotification(
            target: .webPush(endpoint: "https://\(host)/push/x", keys: receiver.subscriberKeys),
            payload: Fixtures.knock, priority: .low, timeToLiveSeconds: 60
        ))
    }

    @Test("a name resolving to any private, loopback or mapped address is refused before connecting")
    func privateResolutionRefused() async throws {
        let resolver = FixedResolver(answers: [
            "rebind.example.com": [[10, 0, 0, 7]],
            "mixed.example.com": [[93, 184, 216, 34], [127, 0, 0, 1]],
            "six.example.com": [[0xFE, 0x80] + [UInt8](repeating: 0, count: 13) + [1]],
            "mapped.example.com": [[UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 169, 254, 169, 254]],
            "odd.example.com": [[1, 2, 3]],
        ])
        let client = try Fixtures.httpClient()
        for host in ["rebind.example.com", "mixed.example.com", "six.example.com", "mapped.example.com", "odd.example.com"] {
            let result = try await outcome(host: host, resolver: resolver, client: client)
            #expect(result == .rejected(reason: WebPushEndpointError.privateAddress(host).description))
        }
        let unresolved = try await outcome(host: "nowhere.example.com", resolver: resolver, client: client)
        #expect(unresolved == .retryable(reason: "push service host did not resolve", retryAfterSeconds: nil))
        try await client.shutdown()
    }

    @Test("the policy accepts public resolved addresses and allows everything when private addresses are allowed")
    func resolvedAddressPolicy() throws {
        let strict = WebPushEndpointPolicy()
        #expect(throws: Never.self) {
            try strict.check(resolvedAddresses: [[93, 184, 216, 34], [0x26, 0x06, 0x28, 0x00] + [UInt8](repeating: 1, count: 12)], of: "a.example")
        }
        #expect(throws: WebPushEndpointError.privateAddress("a.example")) { try strict.check(resolvedAddresses: [[192, 168, 0, 1]], of: "a.example") }
        #expect(throws: Never.self) {
            try WebPushEndpointPolicy(allowPrivateAddresses: true).check(resolvedAddresses: [[127, 0, 0, 1]], of: "a.example")
        }
    }

    @Test("the system resolver answers from the hosts file without the network")
    func systemResolver() async throws {
        let loopback = try await SystemWebPushHostResolver().addresses(of: "localhost")
        #expect(loopback.contains([127, 0, 0, 1]) || loopback.contains([UInt8](repeating: 0, count: 15) + [1]))
        #expect(try await SystemWebPushHostResolver().addresses(of: "127.0.0.1") == [[127, 0, 0, 1]])
    }
}
