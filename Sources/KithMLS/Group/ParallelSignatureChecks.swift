import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks independent signatures on every core (RFC 9420 §10.1 and §7.3 require both the
/// KeyPackage's and its leaf's signature for each Add, and every leaf's signature of a tree a
/// joiner receives): the verdicts are the same as checking them one by one, in the same order of
/// reporting, only computed concurrently.
enum ParallelSignatureChecks {
    /// Below this many items the checks run inline (thread hand-off costs more than it saves).
    static let minimumItems = 16

    /// `check(i)` for every `i` in `0..<count`, spread over the cores; returns the verdicts in order.
    static func run(count: Int, _ check: @Sendable (Int) -> Bool) -> [Bool] {
        guard count >= minimumItems else { return (0..<count).map(check) }
        let verdicts = UnsafeMutableBufferPointer<Bool>.allocate(capacity: count)
        verdicts.initialize(repeating: false)
        defer { verdicts.deallocate() }
        let chunks = min(count, max(1, ProcessInfoCores.active * 4))
        let chunkSize = (count + chunks - 1) / chunks
        let base = UnsafeVerdicts(base: verdicts.baseAddress)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let start = chunk * chunkSize
            let end = min(count, start + chunkSize)
            guard start < end else { return }
            for index in start..<end { base.set(index, check(index)) }  // each index written by one thread only
        }
        return Array(verdicts)
    }

    /// The verdict buffer, shared with the workers; every index is written by exactly one of them
    /// and read only after `concurrentPerform` returns.
    private struct UnsafeVerdicts: @unchecked Sendable {
        let base: UnsafeMutablePointer<Bool>?
        func set(_ index: Int, _ value: Bool) { base?[index] = value }
    }
}

/// The number of cores to spread independent checks over.
enum ProcessInfoCores {
    /// Active processors, at least 1.
    static var active: Int {
        #if canImport(Glibc)
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #elseif canImport(Darwin)
        max(1, Int(sysconf(_SC_NPROCESSORS_ONLN)))
        #else
        1
        #endif
    }
}
