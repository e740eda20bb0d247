import ArgumentParser
import Kith
import KithCanonical
import KithIdentity
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery request FEED_ID [--json]` (on the new device).
    struct Request: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "On a new device: ask guardians for the shares of a lost feed (prints the request and its safety code).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The lost identity's feed id.")
        var feedID: String

        func run() async throws {
            try await Output.run {
                let owner: FeedID
                do throws(IdentityError) { owner = try FeedID(feedID) } catch { throw KithError.identity(error) }
                let account = try await openAccount(global)
                let request = try await account.recovery.makeRequest(for: owner)
                if global.json {
                    var object = JSONObject()
                    object["request"] = .string(request.text)
                    object["safety_code"] = .string(request.safetyCode)
                    Output.json(.object(object))
                    return
                }
                Output.line("Recovery request for \(owner.string):")
                Output.line(request.text)
                Output.line("Safety code: \(request.safetyCode)")
                Output.line("Each guardian runs `kith recovery release \(owner.string) --request REQUEST` and reads you the code; it must match.")
            }
        }
    }
}
