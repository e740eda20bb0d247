/// One measured figure, printed by the runner as `name value unit`.
struct BenchFigure: Sendable {
    /// A stable, dotted name such as `feed.verify_per_s`.
    var name: String
    /// The measured value.
    var value: Double
    /// The unit (`ops/s`, `ms`, `bytes`, `ratio`...).
    var unit: String
}

/// A named group of benchmarks, selected on the command line by `name`.
protocol BenchSuite {
    /// The suite name used on the command line (`feed`, `ratchet`, `mls`, `sync`...).
    static var name: String { get }
    /// Runs every benchmark of the suite, reporting each figure as soon as it is measured.
    static func run(report: (BenchFigure) -> Void) async throws
}

/// Wall-clock timing helpers shared by the suites.
enum BenchClock {
    /// Runs `body` and returns the elapsed seconds.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Repeats `body` until at least `minimumSeconds` have passed; returns operations per second.
    static func rate(minimumSeconds: Double = 1.0, _ body: () throws -> Void) rethrows -> Double {
        var iterations = 0
        var total = 0.0
        var batch = 1
        while total < minimumSeconds {
            total += try seconds { for _ in 0..<batch { try body() } }
            iterations += batch
            batch = min(batch * 2, 4096)
        }
        return Double(iterations) / total
    }
}
