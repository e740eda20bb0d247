import Hummingbird
import HummingbirdTesting
import KithPush
import KithPushDelivery
import KithServer
import Synchronization
import Testing

@Suite("Push dispatcher: retries with backoff, deactivation of gone targets, undeliverable kinds, a bounded queue")
struct PushDispatcherTests {
    @Test("retryable outcomes are tried again until delivered")
    func retriesThenDelivers() async throws {
        let apns = RecordingProvider(kind: .apns, script: [.retryable(reason: "503", retryAfterSeconds: nil), .retryable(reason: "503", retryAfterSeconds: nil)])
        let (server, _, _) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 3)
            #expect(server.pushMetrics?.count(.retried) == 2)
            #expect(server.pushMetrics?.count(.delivered) == 1)
        }
    }

    @Test("retries stop at the maximum number of attempts")
    func retriesExhausted() async throws {
        let apns = RecordingProvider(kind: .apns, fallback: .retryable(reason: "timeout", retryAfterSeconds: nil))
        var limits = PushTestServer.limits()
        limits.maximumDeliveryAttempts = 4
        let (server, _, _) = try PushTestServer.make(providers: [apns], limits: limits)
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 4)
            #expect(server.pushMetrics?.count(.retried) == 3)
            #expect(server.pushMetrics?.count(.failed) == 1)
        }
    }

    @Test("a gone target deactivates its device: the next knock reaches nothing; a re-registration reactivates it")
    func goneDeactivates() async throws {
        let apns = RecordingProvider(kind: .apns, script: [.targetGone(reason: "Unregistered")])
        let (server, store, _) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount("alice")
            let device = try await client.apnsDevice(token: alice, registration: "dead")
            let token = try await client.whitelistToken(token: alice, device: device)
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            let owner = try #require(try await store.account(username: "alice")).id
            #expect(try await store.device(owner: owner, kind: .apns, id: device)?.active == false)
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 1)
            #expect(try await client.push(.post, "/api/v1/device/apns/", #"{"registration_id":"dead"}"#, token: alice).object["active"] == .bool(true))
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 2)
        }
    }

    @Test("rejected notifications are not retried; devices without a provider are counted undeliverable")
    func rejectedAndUndeliverable() async throws {
        let apns = RecordingProvider(kind: .apns, fallback: .rejected(reason: "BadTopic"))
        let (server, _, _) = try PushTestServer.make(providers: [apns])
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let device = try await client.apnsDevice(token: alice)
            _ = try await client.push(.post, "/api/v1/device/gcm/", #"{"registration_id":"fcm"}"#, token: alice)
            let token = try await client.whitelistToken(token: alice, device: device)
            #expect(try await client.knock(token).status == 202)
            await server.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.count == 1)
            #expect(server.pushMetrics?.count(.rejected) == 1)
            #expect(server.pushMetrics?.count(.undeliverable) == 1)
        }
    }

    @Test("over the queue's capacity, notifications are counted as dropped and the knock still answers 202")
    func queueBound() async throws {
        // The provider holds every delivery until the gate opens, so the first two stay in flight whatever the
        // machine's speed (with a quick provider a loaded machine could finish one before the last knock).
        let gated = GatedProvider(kind: .apns, outcome: .retryable(reason: "busy", retryAfterSeconds: nil))
        var limits = PushTestServer.limits()
        limits.dispatchQueueCapacity = 2
        limits.maximumDeliveryAttempts = 3
        limits.retryBaseDelay = .milliseconds(20)
        limits.retryMaximumDelay = .milliseconds(20)
        let (server, _, _) = try PushTestServer.make(providers: [gated], limits: limits)
        try await server.makeApplication().test(.router) { client in
            let alice = try await client.pushAccount()
            let token = try await client.whitelistToken(token: alice, device: try await client.apnsDevice(token: alice))
            for _ in 0..<4 { #expect(try await client.knock(token).status == 202) }
            #expect(server.pushMetrics?.count(.dropped) == 2)
            gated.open()
            await server.pushDispatcher?.waitUntilIdle()
            #expect(server.pushMetrics?.count(.failed) == 2)
        }
    }
}

/// A provider whose deliveries wait until ``open()``, then answer `outcome`.
final class GatedProvider: PushProvider {
    let kind: PushTargetKind
    private let outcome: PushDeliveryOutcome
    private let isOpen = Mutex(false)

    init(kind: PushTargetKind, outcome: PushDeliveryOutcome) {
        self.kind = kind
        self.outcome = outcome
    }

    func open() { isOpen.withLock { $0 = true } }

    func deliver(_ notification: PushNotification) async -> PushDeliveryOutcome {
        while !isOpen.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        return outcome
    }
}
