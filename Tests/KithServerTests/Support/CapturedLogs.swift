import Logging
import Synchronization

/// Every log record a server writes, rendered as one line (message and metadata), at trace level.
final class CapturedLogs: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "kith.serve.test") { label in Handler(label: label, sink: self) }
    }

    /// The lines so far.
    var all: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let label: String
        let sink: CapturedLogs
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let rendered = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            sink.append("\(event.level) \(event.message) \(rendered)")
        }
    }
}
