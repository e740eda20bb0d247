import Foundation
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import KithServer
import Testing

/// The PostgreSQL push store, and two nodes sharing it. Runs when `KITH_TEST_POSTGRES_URL` names a database (the test
/// command starts a throwaway cluster: `scripts/postgres-cluster.sh`); `swift test` alone skips it.
@Suite("PostgreSQL push store: accounts, devices, tokens and push messages shared across nodes",
       .enabled(if: ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"] != nil))
struct PushPostgresTests {
    static func server(node: String, clock: ManualServerClock, providers: [RecordingProvider] = []) async throws -> RendezvousServer {
        let url = try #require(ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"])
        let store = try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: node)
        let push = try await PostgresPushStore.open(store: store)
        var limits = PushTestServer.limits()
        // Live cross-node delivery by LISTEN/NOTIFY alone: no polling.
        limits.subscriberPollInterval = nil
        let configuration = RendezvousServerConfiguration(
            host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: node,
            push: PushConfiguration(providers: providers, publicURL: PushTestServer.publicURL, limits: limits))
        return RendezvousServer(configuration: configuration, store: store, clock: clock, pushStore: push)
    }

    @Test("an account, device and token made on node A; a knock on node B is delivered; revocation on A is seen by B")
    func gatewayAcrossNodes() async throws {
        let clock = ManualServerClock()
        let apns = RecordingProvider(kind: .apns)
        let a = try await Self.server(node: "push-a", clock: clock)
        let b = try await Self.server(node: "push-b", clock: clock, providers: [apns])
        let name = "pg-\(UInt32.random(in: 0...UInt32.max))"
        let (auth, token) = try await a.makeApplication().test(.router) { client async throws in
            let auth = try await client.pushAccount(name)
            let device = try await client.apnsDevice(token: auth, registration: "pg-device")
            #expect(try await client.push(.post, "/api/v1/device/apns/", #"{"registration_id":"pg-device"}"#, token: auth).status == 200)
            return (auth, try await client.whitelistToken(token: auth, device: device))
        }
        try await b.makeApplication().test(.router) { client async throws in
            #expect(try await client.knock(token, data: "x").status == 202)
            await b.pushDispatcher?.waitUntilIdle()
            #expect(apns.notifications.map(\.target) == [.apns(deviceToken: "pg-device")])
        }
        try await a.makeApplication().test(.router) { client async throws in
            #expect(try await client.push(.delete, "/api/v1/tokens/\(token)/", token: auth).status == 204)
        }
        try await b.makeApplication().test(.router) { client async throws in
            #expect(try await client.knock(token).status == 404)
            #expect(try await client.push(.delete, "/api/v1/accounts/\(name)/", token: auth).status == 204)
        }
    }

    @Test("a message posted through node B reaches a subscriber connected to node A (stored, then live by LISTEN/NOTIFY)")
    func pushAcrossNodes() async throws {
        let clock = ManualServerClock()
        let a = try await Self.server(node: "push-sub-a", clock: clock)
        let b = try await Self.server(node: "push-sub-b", clock: clock)
        try await a.makeApplication().test(.live) { clientA in
            try await b.makeApplication().test(.router) { clientB in
                let subscription = try await clientA.push(.post, "/push/subscriptions")
                let path = PushServiceTests.path(try #require(subscription.string("endpoint")))
                let secret = try #require(subscription.string("subscription"))
                #expect(try await clientB.pushBytes(path, [1], headers: PushServiceTests.headers()).status == 201)
                let subscriber = try await PushTestSubscriber.connect(port: try #require(clientA.port), secret: secret)
                #expect(try await subscriber.next()["body"] == .string(Base64URL.encode([1])))
                #expect(try await clientB.pushBytes(path, [2], headers: PushServiceTests.headers()).status == 201)
                #expect(try await subscriber.next()["body"] == .string(Base64URL.encode([2])))
                #expect(try await clientB.push(.delete, "/push/subscriptions/\(secret)").status == 204)
                #expect(try await clientA.pushBytes(path, [3], headers: PushServiceTests.headers()).status == 410)
                await subscriber.close()
            }
        }
    }

    @Test("the per-account device bound holds under concurrent registrations on two nodes")
    func deviceBoundAcrossNodes() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["KITH_TEST_POSTGRES_URL"])
        let rendezvous = try await PostgresRendezvousStore.open(configuration: try PostgresRendezvousStore.configuration(url: url), nodeID: "bound")
        let store = try await PostgresPushStore.open(store: rendezvous)
        let owner = UUID().uuidString.lowercased()
        #expect(try await store.createAccount(PushAccount(
            id: owner, username: "bound-\(UInt32.random(in: 0...UInt32.max))", email: nil, passwordRecord: "x",
            authDigest: (0..<32).map { _ in UInt8.random(in: 0...255) }, createdAt: 0)))
        let outcomes = try await withThrowingTaskGroup(of: DeviceRegistration.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await store.registerDevice(
                        PushDevice(id: UUID().uuidString.lowercased(), owner: owner, kind: .apns, name: nil, active: true, registrationID: "r\(index)", createdAt: 0),
                        maximumPerAccount: 16)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.filter { if case .created = $0 { true } else { false } }.count == 16)
        #expect(try await store.devices(owner: owner, kind: .apns).count == 16)
        #expect(try await store.deleteAccount(id: owner))
    }
}
