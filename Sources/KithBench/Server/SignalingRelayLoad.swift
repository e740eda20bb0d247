import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// Pairs of signaling clients in rooms exchanging offers and answers through the server: the
/// initiator keeps `window` offers in flight, the responder answers each at once; every message
/// carries its send time, and the receiver records the one-way latency (both ends share this
/// process's clock).
enum SignalingRelayLoad {
    /// The outcome: messages relayed, the elapsed time and one-way latencies.
    struct Outcome {
        var messages: Int
        var seconds: Double
        var latencies: LatencySamples
    }

    /// Runs `roundTrips` offer/answer exchanges in each of `rooms` (one pair per room).
    static func run(rooms: [String], url: String, roundTrips: Int, window: Int) async throws -> Outcome {
        let base = ContinuousClock.now
        let counters = LoadCounters()
        let latencies = LatencySamples()
        var logger = Logger(label: "kith.bench.relay")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 16, autoPing: .disabled)

        @Sendable func stamp() -> Int64 {
            let elapsed = ContinuousClock.now - base
            return elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        }
        @Sendable func latency(of text: String) -> Double? {
            guard let range = text.range(of: #""sdp":"t"#) else { return nil }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            guard let sent = Int64(digits) else { return nil }
            return Double(stamp() - sent) / 1e6
        }
        @Sendable func join(_ room: String) -> String { #"{"type":"join_room","roomId":"\#(room)"}"# }

        var tasks: [Task<Void, Never>] = []
        for room in rooms {
            // The initiator: joins first, waits for room_ready and the start, keeps `window` offers in flight.
            tasks.append(Task {
                do {
                    _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                        var samples: [Double] = []
                        samples.reserveCapacity(roundTrips)
                        var sent = 0, answered = 0
                        try await outbound.write(.text(join(room)))
                        for try await message in inbound.messages(maxSize: 1 << 16) {
                            guard case .text(let text) = message else { continue }
                            if text.contains(#""room_ready""#) {
                                counters.ready.add(1, ordering: .relaxed)
                                while !counters.go.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(1)) }
                                while sent < min(window, roundTrips) {
                                    try await outbound.write(.text(#"{"type":"webrtc_offer","sdp":"t\#(stamp())"}"#))
                                    sent += 1
                                }
                            } else if text.contains(#""webrtc_answer""#) {
                                if let value = latency(of: text) { samples.append(value) }
                                answered += 1
                                if answered == roundTrips { break }
                                if sent < roundTrips {
                                    try await outbound.write(.text(#"{"type":"webrtc_offer","sdp":"t\#(stamp())"}"#))
                                    sent += 1
                                }
                            }
                        }
                        latencies.record(samples)
                        counters.finished.add(1, ordering: .relaxed)
                    }
                } catch {
                    counters.failed.add(1, ordering: .relaxed)
                }
            })
        }
        // Let the initiators join first, then the responders.
        try await Task.sleep(for: .milliseconds(200))
        for room in rooms {
            tasks.append(Task {
                do {
                    _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                        var samples: [Double] = []
                        samples.reserveCapacity(roundTrips)
                        try await outbound.write(.text(join(room)))
                        for try await message in inbound.messages(maxSize: 1 << 16) {
                            guard case .text(let text) = message else { continue }
                            if text.contains(#""webrtc_offer""#) {
                                if let value = latency(of: text) { samples.append(value) }
                                try await outbound.write(.text(#"{"type":"webrtc_answer","sdp":"t\#(stamp())"}"#))
                                if samples.count == roundTrips { break }
                            } else if text.contains(#""peer_disconnected""#) || text.contains(#""peer_left""#) {
                                break
                            }
                        }
                        latencies.record(samples)
                    }
                } catch {
                    counters.failed.add(1, ordering: .relaxed)
                }
            })
        }
        let deadline = ContinuousClock.now + .seconds(120)
        while counters.ready.load(ordering: .relaxed) < rooms.count {
            if counters.failed.load(ordering: .relaxed) > 0 { throw BenchFailure("\(counters.failed.load(ordering: .relaxed)) signaling clients failed to join") }
            guard ContinuousClock.now < deadline else { throw BenchFailure("only \(counters.ready.load(ordering: .relaxed)) of \(rooms.count) rooms ready") }
            try await Task.sleep(for: .milliseconds(5))
        }
        let start = ContinuousClock.now
        counters.go.store(true, ordering: .relaxed)
        while counters.finished.load(ordering: .relaxed) < rooms.count {
            if counters.failed.load(ordering: .relaxed) > 0 { throw BenchFailure("\(counters.failed.load(ordering: .relaxed)) signaling clients failed") }
            guard ContinuousClock.now < deadline + .seconds(120) else { throw BenchFailure("relay run timed out") }
            try await Task.sleep(for: .milliseconds(2))
        }
        let seconds = (ContinuousClock.now - start).milliseconds / 1_000
        for task in tasks { await task.value }
        return Outcome(messages: 2 * roundTrips * rooms.count, seconds: seconds, latencies: latencies)
    }
}
