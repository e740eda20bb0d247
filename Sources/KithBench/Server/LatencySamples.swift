import Synchronization

/// Latencies collected from many tasks; percentiles at the end.
final class LatencySamples: Sendable {
    private let samples = Mutex<[Double]>([])

    /// Records one latency in milliseconds.
    func record(milliseconds: Double) { samples.withLock { $0.append(milliseconds) } }

    /// Records many.
    func record(_ batch: [Double]) { samples.withLock { $0.append(contentsOf: batch) } }

    /// How many were recorded.
    var count: Int { samples.withLock { $0.count } }

    /// The `fraction` percentile (0.5 for p50), in milliseconds; 0 without samples.
    func percentile(_ fraction: Double) -> Double {
        let sorted = samples.withLock { $0.sorted() }
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, max(0, Int((Double(sorted.count) * fraction).rounded(.up)) - 1))
        return sorted[index]
    }
}

extension Duration {
    /// The duration in milliseconds.
    var milliseconds: Double { Double(components.seconds) * 1_000 + Double(components.attoseconds) / 1e15 }
}
