import ArgumentParser
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery release FEED_ID (--request REQ | --join CODE [--server URL]) [--code CODE]` (on a guardian's device).
    struct Release: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "As a guardian: release your share of FEED_ID to a recovery request, after comparing its safety code.",
            discussion: """
                Only release to the person you know, in person or by voice. The command shows the request's safety code; \
                the person reads theirs aloud and you type it (or pass --code). The release is given only when both match: \
                printed with --request, sent through the relay with --join CODE (the join code the person read to you).
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var relay: RelayOptions

        @Argument(help: "The feed id (or contact name) whose share you hold.")
        var owner: String

        @Option(help: "The recovery request text the person shows you.")
        var request: String?

        @Option(help: "The join code the person reads to you: receive the request and send the release through the relay.")
        var join: String?

        @Option(help: "The safety code the person read to you (asked interactively when absent).")
        var code: String?

        func validate() throws {
            guard (request == nil) != (join == nil) else { throw ValidationError("give exactly one of --request REQ and --join CODE") }
        }

        func run() async throws {
            try await Output.run {
                let parsed: RecoveryRequest?
                do throws(RecoveryError) { parsed = try request.map { text throws(RecoveryError) in try RecoveryRequest(text: text) } } catch {
                    throw KithError.recovery(error)
                }
                let joinCode = try join.map(PairRun.joinCode)
                let account = try await openAccount(global)
                let ownerID: FeedID
                if let id = try? FeedID(owner) { ownerID = id } else { ownerID = try await account.contacts.resolve(owner).feedID }
                let name = TerminalText.escaped(await account.contacts.displayName(of: ownerID))
                if let joinCode {
                    let (pairing, wait) = try PairRun.pairing(server: relay.server, timeout: relay.timeout)
                    try await RecoveryRelayRun.release(
                        account: account, owner: ownerID, name: name, joinCode: joinCode, pairing: pairing, wait: wait, heard: code, json: global.json)
                    return
                }
                guard let parsed else { return }
                try await RecoverySafetyCheck.confirm(parsed, name: name, heard: code)
                let release = try await account.recovery.release(for: ownerID, request: parsed)
                if global.json {
                    var object = JSONObject()
                    object["release"] = .string(release.text)
                    object["safety_code"] = .string(parsed.safetyCode)
                    Output.json(.object(object))
                    return
                }
                Output.line(release.text)
            }
        }
    }
}
