import ArgumentParser
import Foundation
import Synchronization
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTerminal

/// How `kith feed verify` and `kith feed import` show refused lines.
enum FeedReportJSON {
    /// `rejected` (total), `rejections` (the kept ones), `rejections_omitted` and
    /// `rejections_by_code`.
    static func rejections(_ log: FeedFileRejections) -> JSONObject {
        var object = JSONObject()
        object["rejected"] = .integer(Int64(log.total))
        object["rejections"] = .array(log.kept.map { rejection in
            var entry = JSONObject()
            entry["line"] = .integer(Int64(rejection.line))
            entry["sequence"] = rejection.sequence.map { .integer(Int64($0)) } ?? .null
            entry["code"] = .string(rejection.code)
            entry["message"] = .string(rejection.message)
            return .object(entry)
        })
        object["rejections_omitted"] = .integer(Int64(log.omitted))
        var byCode = JSONObject()
        for (code, count) in log.countsByCode.sorted(by: { $0.key < $1.key }) { byCode[code] = .integer(Int64(count)) }
        object["rejections_by_code"] = .object(byCode)
        return object
    }

    /// One line per kept rejection, then one summarising the omitted ones.
    static func printRejections(_ log: FeedFileRejections, to print: (String) -> Void) {
        for rejection in log.kept {
            // Messages can quote the input (a malformed name, a type): escaped for the terminal.
            print("line \(rejection.line): sequence \(rejection.sequence.map(String.init) ?? "?"): \(rejection.code): \(TerminalText.escaped(rejection.message))")
        }
        guard log.omitted > 0 else { return }
        let codes = log.countsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("... \(log.omitted) more rejected lines not shown (all rejections by reason: \(codes))")
    }
}
