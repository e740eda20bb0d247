import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithGroups
import KithIdentity
import KithInvites
import KithRendezvous
import KithTerminal

/// Parses `--expires-in`.
enum InviteDuration {
    static func parse(_ text: String) throws -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last, let factor = units[unit], let count = Int64(text.dropLast()), count > 0, count <= 3650 * 86_400 / factor else {
            throw KithError.input(.invalid("--expires-in takes a positive duration like 90s, 30m, 12h or 7d (up to 10 years)"))
        }
        return count * factor
    }
}
