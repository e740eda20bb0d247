import Foundation

/// CPU time consumed by this process (user + system, all threads).
enum ProcessCPUClock {
    /// The process's CPU seconds so far.
    static func seconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Repeats `body` until at least `minimumSeconds` of CPU time were used; returns operations per CPU second.
    static func rate(minimumSeconds: Double, _ body: () throws -> Void) rethrows -> Double {
        var iterations = 0
        let start = seconds()
        var elapsed = 0.0
        while elapsed < minimumSeconds {
            for _ in 0..<256 { try body() }
            iterations += 256
            elapsed = seconds() - start
        }
        return Double(iterations) / elapsed
    }
}
