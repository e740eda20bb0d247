import Kith
import KithCanonical
import KithIdentity
import KithStore
import KithTerminal

/// The JSON forms of `kith recovery …` output.
enum RecoveryRendering {
    static func set(_ set: RecoverySetRecord) -> JSONObject {
        var object = JSONObject()
        object["set_id"] = .string(set.setID)
        object["generation"] = .integer(set.generation)
        object["threshold"] = .integer(Int64(set.threshold))
        object["guardians"] = .array(set.guardians.map { .string($0.string) })
        object["created_at"] = .integer(set.createdAt)
        object["carries_backup_key"] = .bool(set.carriesBackupKey)
        object["revoked_at"] = set.revokedAt.map { .integer($0) } ?? .null
        return object
    }

    /// Prints `heading`, then one indented line per guardian of `set` with the name this account knows them by.
    static func printGuardians(of set: RecoverySetRecord, heading: String, account: Account) async {
        Output.line(heading)
        for guardian in set.guardians {
            Output.line("  \(TerminalText.escaped(await account.contacts.displayName(of: guardian)))")
        }
    }
}
