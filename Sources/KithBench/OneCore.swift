import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a measurement with every thread of this process pinned to one CPU, so that work a
/// benchmark spreads over threads (a writer queue, a pipeline) shares a single core, as on a
/// machine with one core to spare.
enum OneCore {
    /// Runs `body` pinned to the last CPU this process may use, then restores each thread's
    /// affinity; nil when pinning is not available (not Linux, or the call was refused).
    static func run<T>(_ body: () throws -> T) rethrows -> T? {
        #if os(Linux)
        guard let calls = AffinityCalls.load() else { return nil }
        var original = [UInt8](repeating: 0, count: AffinityCalls.maskBytes)
        guard calls.get(0, original.count, &original) == 0 else { return nil }
        guard let cpu = (0..<original.count * 8).last(where: { original[$0 / 8] & UInt8(1 << ($0 % 8)) != 0 }) else { return nil }
        var pinned = [UInt8](repeating: 0, count: AffinityCalls.maskBytes)
        pinned[cpu / 8] = UInt8(1 << (cpu % 8))
        guard calls.applyToAllThreads(pinned) else { return nil }
        defer { _ = calls.applyToAllThreads(original) }
        return try body()
        #else
        return nil
        #endif
    }
}

#if os(Linux)
/// `sched_getaffinity` / `sched_setaffinity`, looked up at run time (Glibc's module map does not
/// export these GNU extensions to Swift).
private struct AffinityCalls {
    typealias Call = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
    /// A mask for up to 1,024 CPUs (glibc's `cpu_set_t`).
    static let maskBytes = 128

    let get: Call
    let set: Call

    static func load() -> AffinityCalls? {
        guard let handle = dlopen(nil, RTLD_NOW),
              let get = dlsym(handle, "sched_getaffinity"),
              let set = dlsym(handle, "sched_setaffinity") else { return nil }
        return AffinityCalls(get: unsafeBitCast(get, to: Call.self), set: unsafeBitCast(set, to: Call.self))
    }

    /// Sets the affinity of every thread of this process (threads created later inherit it).
    func applyToAllThreads(_ mask: [UInt8]) -> Bool {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return false }
        var mask = mask
        var applied = false
        for task in tasks {
            guard let tid = pid_t(task) else { continue }
            if set(tid, mask.count, &mask) == 0 { applied = true }
        }
        return applied
    }
}
#endif
