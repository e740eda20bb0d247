import ArgumentParser
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery release FEED_ID --request REQ [--code CODE]` (on a guardian's device).
    struct Release: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "As a guardian: release your share of FEED_ID to a recovery request, after comparing its safety code.",
            discussion: """
                Only release to the person you know, in person or by voice. The command shows the request's safety code; \
                the person reads theirs aloud and you type it (or pass --code). The release is printed only when both match.
                """)

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The feed id (or contact name) whose share you hold.")
        var owner: String

        @Option(help: "The recovery request text the person shows you.")
        var request: String

        @Option(help: "The safety code the person read to you (asked interactively when absent).")
        var code: String?

        func run() async throws {
            try await Output.run {
                let parsed: RecoveryRequest
                do throws(RecoveryError) { parsed = try RecoveryRequest(text: request) } catch { throw KithError.recovery(error) }
                let account = try await openAccount(global)
                let ownerID: FeedID
                if let id = try? FeedID(owner) { ownerID = id } else { ownerID = try await account.contacts.resolve(owner).feedID }
                let name = TerminalText.escaped(await account.contacts.displayName(of: ownerID))
                var heard = code
                if heard == nil {
                    Output.error("Recovery request for \(name). Safety code on this device: \(parsed.safetyCode)")
                    Output.error("Type the code the person reads to you: ")
                    heard = readLine(strippingNewline: true)
                }
                let digits = { (text: String) in text.filter(\.isNumber) }
                guard let heard, digits(heard) == digits(parsed.safetyCode) else {
                    throw KithError.input(.invalid("the safety codes differ: do not release (the request may not be theirs)"))
                }
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
