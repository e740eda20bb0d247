import Foundation
import Logging

/// A swift-log handler writing one JSON object per line to standard error (`KITH_LOG_FORMAT=json`):
/// `time`, `level`, `label`, `message` and the record's metadata as string members, for log
/// collectors. It writes what callers log; Kith's callers never log keys, content, room ids,
/// join codes or device ids.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var record: [String: String] = [:]
        for (key, value) in metadata { record[key] = value.description }
        for (key, value) in metadataProvider?.get() ?? [:] { record[key] = value.description }
        for (key, value) in event.metadata ?? [:] { record[key] = value.description }
        record["time"] = Date().formatted(.iso8601)
        record["level"] = event.level.rawValue
        record["label"] = label
        record["message"] = event.message.description
        guard var line = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }
}
