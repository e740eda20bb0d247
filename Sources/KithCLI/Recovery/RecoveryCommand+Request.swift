import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithContinuity
import KithIdentity
import KithTerminal

extension RecoveryCommand {
    /// `kith recovery request FEED_ID [--server URL [--guardians N] [--into DIR]] [--json]` (on the new device).
    struct Request: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "On a new device: ask guardians for the shares of a lost feed (prints the request and its safety code).",
            discussion: """
                Without --server the request text is printed to hand over however you like. With --server, each guardian \
                is reached through that server's join-code relay: the command prints a join code to read to one guardian \
                (by phone or in person), receives the guardian's release, and offers the next code until enough releases \
                are in (or --guardians codes were offered). Then it rebuilds the identity into --into DIR, or prints the \
                releases for `kith recovery combine`.
                """)

        @OptionGroup var global: GlobalOptions
        @OptionGroup var relay: RelayOptions

        @Argument(help: "The lost identity's feed id.")
        var feedID: String

        @Option(help: "With --server: offer at most N join codes, one guardian each (stops as soon as enough releases are in).")
        var guardians: Int = RecoveryLimits.maxShares

        @Option(help: "With --server: an empty directory to rebuild the identity's home into once enough releases are in.")
        var into: String?

        func validate() throws {
            guard (1...RecoveryLimits.maxShares).contains(guardians) else {
                throw ValidationError("--guardians must be between 1 and \(RecoveryLimits.maxShares)")
            }
            guard relay.server != nil || into == nil else { throw ValidationError("--into needs --server (or use `kith recovery combine --into`)") }
        }

        func run() async throws {
            try await Output.run {
                let owner: FeedID
                do throws(IdentityError) { owner = try FeedID(feedID) } catch { throw KithError.identity(error) }
                let account = try await openAccount(global)
                if let server = relay.server {
                    let (pairing, wait) = try PairRun.pairing(server: server, timeout: relay.timeout)
                    let request = try await account.recovery.makeRequest(for: owner)
                    try await RecoveryRelayRun.collect(
                        account: account, owner: owner, request: request, pairing: pairing, wait: wait,
                        guardians: guardians, server: server, into: into, json: global.json)
                    return
                }
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
