import Crypto
import Foundation
import KithCanonical
import KithPush
import KithPushDelivery
import Testing

/// The sender half of Interop/push-delivery/check_push_delivery.py: that script runs an independent
/// Python push receiver on loopback, writes its subscription to the file named by
/// `KITH_PUSH_INTEROP_SUBSCRIPTION` and runs this suite; the receiver answers 201 only after pyjwt and
/// py_vapid verified the VAPID JWT and http_ece decrypted the knock. The same server plays the OAuth
/// token endpoint and FCM send API (`KITH_PUSH_INTEROP_FCM_SERVICE_ACCOUNT`, `KITH_PUSH_INTEROP_FCM_BASE`)
/// and checks the RS256 assertion with pyjwt, and `apns_mock.py` is an HTTP/2 APNs endpoint (`h2`) that
/// checks the ES256 provider token with pyjwt. Skipped when the variables are unset.
@Suite("Web Push and FCM interop with a Python receiver (run by Interop/run.sh)")
struct PushDeliveryInteropTests {
    static let subscriptionFile = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_SUBSCRIPTION"]

    @Test("two knocks reach the Python receiver and are accepted", .enabled(if: PushDeliveryInteropTests.subscriptionFile != nil))
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

    static let serviceAccountFile = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_FCM_SERVICE_ACCOUNT"]
    static let fcmBase = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_FCM_BASE"]

    @Test("an FCM knock reaches the Python OAuth endpoint and send API and is accepted",
          .enabled(if: PushDeliveryInteropTests.serviceAccountFile != nil && PushDeliveryInteropTests.fcmBase != nil))
    func deliverToPythonFCM() async throws {
        let configuration = try FCMProviderConfiguration.load(serviceAccountFile: try #require(Self.serviceAccountFile))
        let local = try FCMProviderConfiguration(serviceAccount: configuration.serviceAccount, baseURL: try #require(Self.fcmBase))
        let client = PushHTTPSettings.makeHTTPClient()
        let provider = FCMProvider(configuration: local, httpClient: client)
        let outcome = await provider.deliver(PushNotification(target: .fcm(registrationToken: "fcm-interop-token"), payload: Fixtures.knock,
                                                              priority: .high, timeToLiveSeconds: 60))
        try await client.shutdown()
        #expect(outcome == .delivered)
    }

    static let apnsKeyFile = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_APNS_KEY"]
    static let apnsPort = ProcessInfo.processInfo.environment["KITH_PUSH_INTEROP_APNS_PORT"].flatMap { Int($0) }

    @Test("a background and an alert knock reach the Python h2 APNs endpoint and are accepted",
          .enabled(if: PushDeliveryInteropTests.apnsKeyFile != nil && PushDeliveryInteropTests.apnsPort != nil))
    func deliverToPythonAPNs() async throws {
        let key = try APNsProviderConfiguration.signingKey(fromPEM: String(contentsOfFile: try #require(Self.apnsKeyFile), encoding: .utf8))
        let configuration = try APNsProviderConfiguration(
            signingKey: key, keyID: "KITHKEY001", teamID: "KITHTEAM01", bundleID: "org.kith.Interop",
            host: "127.0.0.1", port: try #require(Self.apnsPort)
        )
        let client = try Fixtures.httpClient()
        let provider = APNsProvider(configuration: configuration, httpClient: client)
        let target = PushTarget.apns(deviceToken: String(repeating: "ab", count: 32))
        let low = await provider.deliver(PushNotification(target: target, payload: Fixtures.knock, priority: .low, timeToLiveSeconds: 60))
        let high = await provider.deliver(PushNotification(target: target, payload: Fixtures.knock, priority: .high, timeToLiveSeconds: 60))
        try await client.shutdown()
        #expect(low == .delivered)
        #expect(high == .delivered)
    }
}
