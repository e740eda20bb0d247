import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs independent checks (signatures of one batch, of a commit's KeyPackages, of a tree's leaves) on every core: the
/// verdicts are those of checking them one by one, in order, only computed concurrently.
public enum ConcurrentChecks {
    /// Below this many checks they run inline (handing work to other threads costs more than it saves).
    public static let minimumChecks = 16

    /// `check(i)` for every `i` in `0..<count`, spread over the cores; the verdicts in order.
    public static func run(count: Int, _ check: @Sendable (Int) -> Bool) -> [Bool] {
        // The core count is read only for a batch large enough to spread: it is a sysfs read on Linux, which cost a
        // one-entry import more than its own bookkeeping.
        let cores = count >= minimumChecks ? activeCores : 1
        guard cores > 1 else { return (0..<count).map(check) }
        let verdicts = UnsafeMutableBufferPointer<Bool>.allocate(capacity: count)
        verdicts.initialize(repeating: false)
        defer { verdicts.deallocate() }
        let chunks = min(count, cores * 4)
        let chunkSize = (count + chunks - 1) / chunks
        let shared = SharedVerdicts(base: verdicts.baseAddress)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = chunk * chunkSize
            let end = min(count, start + chunkSize)
            guard start < end else { return }
            for index in start..<end { shared.set(index, check(index)) }
        }
        return Array(verdicts)
    }

    /// The verdict buffer shared with the workers: each index is written by exactly one of them and read only after
    /// `concurrentPerform` returns.
    private struct SharedVerdicts: @unchecked Sendable {
        let base: UnsafeMutablePointer<Bool>?
        func set(_ index: Int, _ value: Bool) { base?[index] = value }
    }

    /// Active processors, at least 1.
    public static var activeCores: Int {
        #if canImport(Glibc)
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #elseif canImport(Darwin)
        max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
        #else
        1
        #endif
    }
}
