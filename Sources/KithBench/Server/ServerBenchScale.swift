import Foundation

/// How big the `server` suite's loads are: full by default, smaller with
/// `KITH_BENCH_SERVER_SCALE=quick` (or explicit `KITH_BENCH_SERVER_IDLE`, `_PAIRS`, `_ROOMS`, `_ROUNDS`).
struct ServerBenchScale {
    /// Idle WebSocket connections held.
    var idleConnections: Int
    /// Connected pairs relaying signaling.
    var pairs: Int
    /// Offer/answer round trips per pair, `window` in flight at once.
    var roundTrips: Int
    /// Offers a pair keeps in flight.
    var window: Int
    /// Pairings created and accepted over REST.
    var rooms: Int
    /// Concurrent REST workers.
    var restWorkers: Int

    /// The scale from the environment.
    static func fromEnvironment() -> ServerBenchScale {
        let environment = ProcessInfo.processInfo.environment
        var scale = environment["KITH_BENCH_SERVER_SCALE"] == "quick"
            ? ServerBenchScale(idleConnections: 1_000, pairs: 100, roundTrips: 20, window: 4, rooms: 400, restWorkers: 8)
            : ServerBenchScale(idleConnections: 10_000, pairs: 1_000, roundTrips: 50, window: 4, rooms: 2_000, restWorkers: 8)
        func read(_ name: String) -> Int? { environment[name].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } }
        if let value = read("KITH_BENCH_SERVER_IDLE") { scale.idleConnections = value }
        if let value = read("KITH_BENCH_SERVER_PAIRS") { scale.pairs = value }
        if let value = read("KITH_BENCH_SERVER_ROUNDS") { scale.roundTrips = value }
        if let value = read("KITH_BENCH_SERVER_ROOMS") { scale.rooms = value }
        scale.rooms = max(scale.rooms, scale.pairs)
        return scale
    }
}
