import ArgumentParser
import Foundation
import Kith
import KithCanonical

extension GroupCommand.Keys {
    /// `kith group keys auto [on|off]`.
    struct Auto: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show or set whether contacts are offered a KeyPackage automatically when you sync with them.",
            discussion: """
                On (the default), every verified contact is offered one KeyPackage made for them, over your direct \
                session, when a sync with them starts; a used one is replaced at the next sync (at most once per 10 \
                minutes). Off sends nothing without `kith group keys share` and withdraws the automatic offers still \
                waiting unused (a contact can no longer add you with them).
                """
        )

        /// The state to set.
        enum Switch: String, ExpressibleByArgument, CaseIterable {
            case on, off
        }

        @OptionGroup var global: GlobalOptions

        @Argument(help: "on or off; without it, print the current state.")
        var state: Switch?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                var withdrawn = 0
                if let state { withdrawn = try await account.groups.setAutomaticKeyOffers(state == .on) }
                let enabled = try await account.groups.automaticKeyOffers()
                if global.json {
                    var object = JSONObject()
                    object["automatic_offers"] = .bool(enabled)
                    if state != nil { object["withdrawn"] = .integer(Int64(withdrawn)) }
                    Output.json(.object(object))
                } else {
                    Output.line("Automatic KeyPackage offers: \(enabled ? "on" : "off")")
                    if withdrawn > 0 { Output.line("Withdrew \(withdrawn) automatic offer\(withdrawn == 1 ? "" : "s") waiting unused.") }
                }
            }
        }
    }
}
