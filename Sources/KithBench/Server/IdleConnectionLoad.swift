import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// Holds many idle signaling connections open against a server: each client waits for
/// `connected` and then reads until the server closes it.
enum IdleConnectionLoad {
    /// Opens `count` connections to `url`, `batch` at a time; answers once all are connected, with
    /// the tasks holding them (they end when the server closes the connections).
    static func open(_ count: Int, url: String, batch: Int = 100) async throws -> [Task<Void, Never>] {
        let counters = LoadCounters()
        var logger = Logger(label: "kith.bench.idle")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 16, autoPing: .disabled)
        var tasks: [Task<Void, Never>] = []
        tasks.reserveCapacity(count)
        var opened = 0
        while opened < count {
            let next = min(count, opened + batch)
            for _ in opened..<next {
                tasks.append(Task {
                    do {
                        _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, _, _ in
                            var first = true
                            for try await _ in inbound.messages(maxSize: 1 << 16) where first {
                                first = false
                                counters.ready.add(1, ordering: .relaxed)
                            }
                        }
                    } catch {
                        counters.failed.add(1, ordering: .relaxed)
                    }
                })
            }
            let deadline = ContinuousClock.now + .seconds(60)
            while counters.ready.load(ordering: .relaxed) < next {
                if counters.failed.load(ordering: .relaxed) > 0 { throw BenchFailure("\(counters.failed.load(ordering: .relaxed)) idle connections failed") }
                guard ContinuousClock.now < deadline else { throw BenchFailure("only \(counters.ready.load(ordering: .relaxed)) of \(next) connections opened") }
                try await Task.sleep(for: .milliseconds(5))
            }
            opened = next
        }
        return tasks
    }
}
