import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithTerminal

/// Parses `--explode-at` / `--explode-in`.
enum ExplosionTime {
    static func parse(at: String?, in duration: String?, now: Int64) throws -> Int64? {
        switch (at, duration) {
        case (nil, nil): return nil
        case (.some, .some): throw KithError.input(.invalid("use --explode-at or --explode-in, not both"))
        case (let at?, nil):
            if let seconds = Int64(at) { return seconds }
            guard let date = ISO8601DateFormatter().date(from: at) else {
                throw KithError.input(.invalid("--explode-at takes Unix seconds or ISO 8601 like 2026-12-31T20:00:00Z"))
            }
            return Int64(date.timeIntervalSince1970)
        case (nil, let duration?):
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            guard let unit = duration.last, let factor = units[unit], let count = Int64(duration.dropLast()), count > 0, count <= 3650 * 86_400 / factor else {
                throw KithError.input(.invalid("--explode-in takes a positive duration like 90s, 30m, 12h or 7d (up to 10 years)"))
            }
            return now + count * factor
        }
    }
}
