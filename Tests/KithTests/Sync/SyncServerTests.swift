import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import KithSync
import Synchronization
import Testing
@testable import Kith

/// A raw TCP client on 127.0.0.1 that never speaks Noise (an attacker), on a plain socket.
private final class RawClient: Sendable {
    private let fd: Int32

    init?(port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            Glibc.close(fd)
            return nil
        }
        self.fd = fd
    }

    /// False once the server closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    func close() { Glibc.close(fd) }
}

/// The events a server reported.
private final class EventLog: Sendable {
    private let events = Mutex<[TCPSyncServerEvent]>([])

    func append(_ event: TCPSyncServerEvent) { events.withLock { $0.append(event) } }
    var isEmpty: Bool { events.withLock { $0.isEmpty } }
    func contains(_ predicate: (TCPSyncServerEvent) -> Bool) -> Bool { events.withLock { $0.contains(where: predicate) } }
}

/// `kith sync listen` keeps serving contacts while slow and flooding clients connect (issue 11, item 3).
@Suite("Sync listener under slow and flooding clients (TCP on 127.0.0.1)", .timeLimit(.minutes(2)))
struct SyncServerTests {
    private static func start(_ agent: SyncAgent, server: TCPSyncServer = TCPSyncServer()) async throws -> (TCPSyncListener, Task<Void, Never>, EventLog) {
        let listener = try await TCPSyncListener.bind(host: "127.0.0.1", port: 0)
        let events = EventLog()
        let task = Task { await agent.serve(listener: listener, server: server, onEvent: { event in events.append(event) }) }
        return (listener, task, events)
    }

    /// A slow client (a length prefix, then one byte now and then) connects first, then 300
    /// connections that say nothing, and connections keep arriving while a contact syncs: the
    /// contact's sync completes.
    @Test("a contact syncs while a slow client and a flood hold connections")
    func contactGetsThrough() async throws {
        let (alice, bob) = try await SyncPair.met()
        for index in 0..<3 { try await alice.publishing.post("note \(index)", audience: .contacts) }
        let bobAgent = SyncAgent(account: bob)
        // Every client here comes from 127.0.0.1; a real contact dials from another address than the flood, so the
        // per-source bound is lifted to the overall one (with 8, the contact's handshake would race 8 newer flood
        // connections of its own address: under 800 ms on a loaded machine).
        // The contact's handshake must not race a clock either: a machine loaded beside the suite took longer than the
        // default 5 s for it, so the deadline is lifted too (the trickling client's deadline is tested below).
        let server = TCPSyncServer(handshakeTimeout: 120, maximumPendingHandshakesPerSource: SyncLimits.tcpMaximumPendingHandshakes)
        let (listener, serving, events) = try await Self.start(bobAgent, server: server)
        let port = listener.port

        let slow = try #require(RawClient(port: port))
        slow.send([0x00, 0x40])
        let trickle = Task.detached {
            while !Task.isCancelled, slow.send([0x01]) { try? await Task.sleep(for: .milliseconds(300)) }
        }
        let flood = await Task.detached { (0..<300).compactMap { _ in RawClient(port: port) } }.value
        #expect(flood.count == 300)
        let background = Task.detached {
            var more: [RawClient] = []
            while !Task.isCancelled {
                if let client = RawClient(port: port) { more.append(client) }
                // One a second: the contact's pending handshake is pushed out only after 64 newer connections, so a
                // loaded machine gets a minute to finish it (the 300 above already fill the slots and evict).
                try? await Task.sleep(for: .seconds(1))
            }
            return more
        }

        let aliceAgent = SyncAgent(account: alice)
        let bobContact = try await alice.contacts.all().first { $0.feedID == bob.feedID }
        let link = try await aliceAgent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
            try await TCPTransport.connect(host: "127.0.0.1", port: port)
        }, contact: bobContact)
        let report = await aliceAgent.run(link: link)
        #expect(report.completed)
        #expect(report.messagesSent >= 3)
        #expect(try bob.store.head(of: alice.feedID)?.sequence == alice.store.head(of: alice.feedID)?.sequence)

        background.cancel()
        trickle.cancel()
        // The clients go first: the server's pending handshakes then end at once instead of at their deadline.
        for client in flood + (await background.value) { client.close() }
        slow.close()
        await listener.close()
        await serving.value
        // The flood was pushed out oldest first, not served one at a time.
        #expect(events.contains { if case .evicted = $0 { true } else { false } })
    }

    @Test("a client that trickles bytes is closed at the handshake deadline")
    func slowClientTimesOut() async throws {
        let (_, bob) = try await SyncPair.met()
        let (listener, serving, events) = try await Self.start(SyncAgent(account: bob), server: TCPSyncServer(handshakeTimeout: 0.5))
        let slow = try #require(RawClient(port: listener.port))
        slow.send([0x00, 0x40])
        let start = ContinuousClock.now
        var open = true
        while open, ContinuousClock.now - start < .seconds(20) {
            try await Task.sleep(for: .milliseconds(200))
            open = slow.send([0x01])
            // A send right after the close may still succeed once; the next one fails.
            if !open || !events.isEmpty { open = open && slow.send([0x01]) && slow.send([0x01]) }
        }
        #expect(!open)
        // The server closes the socket before it reports why: wait for the report (bounded).
        let timedOut = { events.contains { if case .handshakeTimedOut = $0 { true } else { false } } }
        let reported = ContinuousClock.now
        while !timedOut(), ContinuousClock.now - reported < .seconds(20) { try await Task.sleep(for: .milliseconds(50)) }
        #expect(timedOut())
        slow.close()
        await listener.close()
        await serving.value
    }
}
