import Foundation

/// `kith-bench server`: `kith serve` under load on loopback, the server in a child process (its
/// memory is its own), the load generated here in Swift.
///
/// - `server.idle_connections` and `server.idle_kb_per_connection`: idle signaling connections
///   held, and the server's resident-memory growth (VmRSS) per connection.
/// - `server.rooms_per_s`, `server.room_p50_ms`, `server.room_p99_ms`: pairings created and
///   accepted over REST (create + accept per pairing) by concurrent workers.
/// - `server.relay_msgs_per_s`, `server.relay_p50_ms`, `server.relay_p99_ms`: signaling messages
///   relayed among connected pairs (offer/answer, a window of 4 in flight per pair), one-way latency.
///
/// `KITH_BENCH_SERVER_SCALE=quick` runs a smaller load (see ``ServerBenchScale``).
/// The server child serves signaling on channel handlers, the one engine: `KITH_BENCH_SIGNALING_HANDLERS`
/// (which chose the retired task-per-WebSocket engine with `0`) is refused unless it is `1`.
enum ServerSuite: BenchSuite {
    static let name = "server"

    static func run(report: (BenchFigure) -> Void) async throws {
        if let engine = ProcessInfo.processInfo.environment["KITH_BENCH_SIGNALING_HANDLERS"], engine != "1" {
            throw BenchFailure(
                "KITH_BENCH_SIGNALING_HANDLERS=\(engine): the task-per-WebSocket engine was retired (docs/SERVER.md); unset the variable")
        }
        let scale = ServerBenchScale.fromEnvironment()
        let files = FileLimit.raiseToHard()
        guard files > scale.idleConnections + 256, files > 2 * scale.pairs + 256 else {
            throw BenchFailure("the open-file limit (\(files)) is too low for \(scale.idleConnections) connections; lower KITH_BENCH_SERVER_IDLE")
        }

        // Idle connections, in a fresh server.
        let idleServer = try ServerChild.start()
        do {
            let url = "ws://127.0.0.1:\(idleServer.port)/"
            // Warm the server up (first connection, first allocations) before the baseline.
            let warm = try await IdleConnectionLoad.open(10, url: url)
            try await Task.sleep(for: .seconds(1))
            guard let before = idleServer.residentKilobytes else { throw BenchFailure("cannot read the server's VmRSS") }
            let held = try await IdleConnectionLoad.open(scale.idleConnections, url: url)
            try await Task.sleep(for: .seconds(2))
            guard let after = idleServer.residentKilobytes else { throw BenchFailure("cannot read the server's VmRSS") }
            report(BenchFigure(name: "server.idle_connections", value: Double(held.count), unit: "connections"))
            report(BenchFigure(name: "server.idle_kb_per_connection", value: Double(after - before) / Double(held.count), unit: "KiB"))
            report(BenchFigure(name: "server.idle_rss_mb", value: Double(after) / 1_024, unit: "MiB"))
            idleServer.stop()
            for task in warm + held { await task.value }
        } catch {
            idleServer.stop()
            throw error
        }

        // Rooms, then signaling among pairs, in a second fresh server.
        let server = try ServerChild.start()
        do {
            let pairing = try await RoomPairingLoad.run(count: scale.rooms, baseURL: "http://127.0.0.1:\(server.port)", workers: scale.restWorkers)
            report(BenchFigure(name: "server.rooms_per_s", value: Double(pairing.rooms.count) / pairing.seconds, unit: "pairings/s"))
            report(BenchFigure(name: "server.room_p50_ms", value: pairing.latencies.percentile(0.5), unit: "ms"))
            report(BenchFigure(name: "server.room_p99_ms", value: pairing.latencies.percentile(0.99), unit: "ms"))

            let relay = try await SignalingRelayLoad.run(
                rooms: Array(pairing.rooms.prefix(scale.pairs)), url: "ws://127.0.0.1:\(server.port)/",
                roundTrips: scale.roundTrips, window: scale.window)
            report(BenchFigure(name: "server.relay_pairs", value: Double(scale.pairs), unit: "pairs"))
            report(BenchFigure(name: "server.relay_msgs_per_s", value: Double(relay.messages) / relay.seconds, unit: "msgs/s"))
            report(BenchFigure(name: "server.relay_p50_ms", value: relay.latencies.percentile(0.5), unit: "ms"))
            report(BenchFigure(name: "server.relay_p99_ms", value: relay.latencies.percentile(0.99), unit: "ms"))
            server.stop()
        } catch {
            server.stop()
            throw error
        }
    }
}
