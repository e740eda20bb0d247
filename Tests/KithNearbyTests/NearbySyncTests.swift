import KithFeed
import KithSync
import Synchronization
import KithAccountFixtures
import Testing
@testable import KithNearby
@testable import Kith

/// The bound on a discovery window in these tests: generous, since a run ends as soon as what the test waits for has
/// happened (``stopOnceSynced(_:)``), however slow the machine; a window only runs this long when that never happens.
let discoveryBound: Double = 90

private func options(dialGrace: Double? = nil) -> NearbyOptions {
    NearbyOptions(tcpHost: "127.0.0.1", tcpPort: 0, duration: discoveryBound, beaconInterval: 0.1, dialGrace: dialGrace, sessionGrace: 30)
}

/// A run that ends its discovery once one session with a contact completed (the event, not a timer).
func stopOnceSynced(_ sync: NearbySync, also: @escaping @Sendable (NearbySync.Event) -> Void = { _ in }) -> @Sendable (NearbySync.Event) -> Void {
    { event in
        also(event)
        if case .sessionFinished(_, let report) = event, report.completed { sync.stop() }
    }
}

@Suite("kith sync nearby (beacons over an in-memory LAN, sessions over TCP on 127.0.0.1)", .timeLimit(.minutes(4)))
struct NearbySyncTests {
    @Test("two contacts find each other, sync once, and a stranger on the LAN is ignored")
    func discoverAndSync() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let carol = try MetAccounts.account(0xC0)
        let alicePost = try await alice.publishing.post("from alice", audience: .contacts)
        let bobPost = try await bob.publishing.post("from bob", audience: .contacts)
        let network = InMemoryNearbyNetwork()
        let heardByCarol = Mutex(0)
        // The higher side's grace outlasts the window, so only the lower side dials, however slow
        // the machine (the simultaneous-dial case is the next test). Each side stops once it synced;
        // Carol listens until both have.
        let aliceSync = NearbySync(agent: SyncAgent(account: alice), datagrams: network.join(host: "127.0.0.1"), options: options(dialGrace: 2 * discoveryBound))
        let bobSync = NearbySync(agent: SyncAgent(account: bob), datagrams: network.join(host: "127.0.0.1"), options: options(dialGrace: 2 * discoveryBound))
        let carolSync = NearbySync(agent: SyncAgent(account: carol), datagrams: network.join(host: "127.0.0.1"), options: options())
        async let aliceRun = aliceSync.run(onEvent: stopOnceSynced(aliceSync))
        async let bobRun = bobSync.run(onEvent: stopOnceSynced(bobSync))
        async let carolRun = carolSync.run { event in
            if case .heard = event { heardByCarol.withLock { $0 += 1 } }
        }
        let aliceResults = try await aliceRun
        let bobResults = try await bobRun
        carolSync.stop()
        let carolResults = try await carolRun
        #expect(carolResults.isEmpty)
        #expect(heardByCarol.withLock { $0 } == 0)
        #expect(aliceResults.filter(\.report.completed).count == 1)
        #expect(bobResults.filter(\.report.completed).count == 1)
        #expect(aliceResults.first?.contact.feedID == bob.feedID)
        // The lower static key dialed.
        let aliceKey = Array(alice.identity.dhKey.publicKey.rawRepresentation)
        let bobKey = Array(bob.identity.dhKey.publicKey.rawRepresentation)
        #expect(aliceResults.first?.initiated == aliceKey.lexicographicallyPrecedes(bobKey))
        #expect(try bob.store.message(alicePost.messageID)?.content != nil)
        #expect(try alice.store.message(bobPost.messageID)?.content != nil)
        #expect(try carol.store.message(alicePost.messageID) == nil)
    }

    @Test("when both sides dial at once, one link survives and the feeds still sync exactly once")
    func simultaneousDial() async throws {
        let (alice, bob) = try await MetAccounts.met()
        for index in 0..<10 { try await alice.publishing.post("a\(index)", audience: .contacts); try await bob.publishing.post("b\(index)", audience: .contacts) }
        let network = InMemoryNearbyNetwork()
        // dialGrace 0: the higher key dials at once too, so both links race.
        let aliceSync = NearbySync(agent: SyncAgent(account: alice), datagrams: network.join(host: "127.0.0.1"), options: options(dialGrace: 0))
        let bobSync = NearbySync(agent: SyncAgent(account: bob), datagrams: network.join(host: "127.0.0.1"), options: options(dialGrace: 0))
        async let aliceRun = aliceSync.run(onEvent: stopOnceSynced(aliceSync))
        let bobResults = try await bobSync.run(onEvent: stopOnceSynced(bobSync))
        let aliceResults = try await aliceRun
        #expect(aliceResults.filter(\.report.completed).count == 1)
        #expect(bobResults.filter(\.report.completed).count == 1)
        let completedAlice = aliceResults.first(where: \.report.completed)
        let completedBob = bobResults.first(where: \.report.completed)
        // The surviving link is the same one: exactly one side initiated it.
        #expect(completedAlice?.initiated != completedBob?.initiated)
        #expect(try bob.store.head(of: alice.feedID) == alice.store.head(of: alice.feedID))
        #expect(try alice.store.head(of: bob.feedID) == bob.store.head(of: bob.feedID))
        let duplicates = aliceResults.map(\.report.messagesDuplicate).reduce(0, +) + bobResults.map(\.report.messagesDuplicate).reduce(0, +)
        #expect(duplicates == 0)
    }
}

@Suite("kith sync nearby over real UDP multicast on 127.0.0.1", .timeLimit(.minutes(4)))
struct NearbyMulticastTests {
    @Test("two contacts find each other through loopback multicast and sync")
    func loopbackMulticast() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let post = try await alice.publishing.post("over multicast", audience: .contacts)
        let port = Int.random(in: 40_000...49_000)
        let aliceDatagrams = try await UDPMulticastTransport.open(port: port, interfaceAddress: "127.0.0.1")
        let bobDatagrams = try await UDPMulticastTransport.open(port: port, interfaceAddress: "127.0.0.1")
        let settings = NearbyOptions(tcpHost: "127.0.0.1", tcpPort: 0, duration: discoveryBound, beaconInterval: 0.2, sessionGrace: 30)
        let aliceSync = NearbySync(agent: SyncAgent(account: alice), datagrams: aliceDatagrams, options: settings)
        let bobSync = NearbySync(agent: SyncAgent(account: bob), datagrams: bobDatagrams, options: settings)
        async let aliceRun = aliceSync.run(onEvent: stopOnceSynced(aliceSync))
        let bobResults = try await bobSync.run(onEvent: stopOnceSynced(bobSync))
        let aliceResults = try await aliceRun
        #expect(aliceResults.contains { $0.report.completed })
        #expect(bobResults.contains { $0.report.completed })
        #expect(try bob.store.message(post.messageID)?.content != nil)
    }
}
