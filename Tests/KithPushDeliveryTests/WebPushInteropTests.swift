import Crypto
import Foundation
import KithCanonical
import KithPush
import KithPushDelivery
import Testing

/// The sender half of Interop/push-delivery/check_webpush_delivery.py: that script runs an independent
/// Python push receiver on loopback, writes its subscription to the file named by
/// `KITH_PUSH_INTEROP_SUBSCRIPTION` and runs this suite; the receiver answers 201 only after pyjwt and
/// py_vapid verified the VAPID JWT and http_ece decrypted the knock. Skipped when the variable is unset.
@Suite("Web Push interop with a Python receiver (run by Interop/run.sh)")
struct WebPushInteropTests {
    static let subscriptionFile = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_SUBSCRIPTION"]

    @Test("two knocks reach the Python receiver and are accepted", .enabled(if: WebPushInteropTests.subscriptionFile != nil))
    func deliverToPythonReceiver() async throws {
        let path = try #require(Self.subscriptionFile)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try #require(try CanonicalJSON.parse(Array(data)).objectValue)
        let endpoint = try #require(object["endpoint"]?.stringValue)
        let keys = try WebPushSubscriberKeys(p256dh: try #require(object["p256dh"]?.stringValue), auth: try #require(object["auth"]?.stringValue))

        let configuration = try WebPushProviderConfiguration(
            signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: "mailto:interop@kith.example",
            endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: true)
        )
        let client = PushHTTPSettings.makeHTTPClient()
        let provider = WebPushProvider(configuration: configuration, httpClient: client)
        let high = await provider.deliver(PushNotification(target: .webPush(endpoint: endpoint, keys: keys), payload: Fixtures.knock,
                                                           priority: .high, timeToLiveSeconds: 60, topic: "kith-knock"))
        let low = await provider.deliver(PushNotification(target: .webPush(endpoint: endpoint, keys: keys), payload: Fixtures.knock,
                                                          priority: .low, timeToLiveSeconds: 60))
        try await client.shutdown()
        #expect(high == .delivered)
        #expect(low == .delivered)
    }
}
