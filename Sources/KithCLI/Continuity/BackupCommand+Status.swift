import ArgumentParser
import Kith
import KithCanonical

extension BackupCommand {
    /// `kith backup status [--json]`: what a restored home still has to re-establish (docs/CONTINUITY.md section 8).
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "After a restore: runs one re-establishment pass and shows what is pending (prekeys sent, groups readmitted)."
        )

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let status = try await account.reestablish()
                if global.json {
                    var object = JSONObject()
                    object["waiting_for_head"] = .bool(status.waitingForHead)
                    object["prekeys_sent"] = .integer(Int64(status.prekeysSent))
                    object["prekeys_total"] = .integer(Int64(status.prekeysTotal))
                    object["groups_readmitted"] = .integer(Int64(status.groupsReadmitted))
                    object["groups_requested"] = .integer(Int64(status.groupsRequested))
                    object["groups_total"] = .integer(Int64(status.groupsTotal))
                    object["groups_waiting"] = .array(status.groupsWaiting.map { .string($0) })
                    object["complete"] = .bool(status.isComplete)
                    Output.json(.object(object))
                } else {
                    Output.line(status.description)
                    for group in status.groupsWaiting {
                        Output.line("  waiting for readmission: group \(group) (if the member asked never answers: kith backup readmit \(group.prefix(8)) --via CONTACT)")
                    }
                }
            }
        }
    }
}
