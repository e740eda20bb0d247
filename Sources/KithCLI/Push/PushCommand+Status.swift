import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithDemo
import KithFeed
import KithIdentity
import KithPushClient
import KithStore
import KithSync
import KithTerminal

extension PushCommand {
    /// `kith push status [--json]`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the push registration and the token pools with each contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let registration = try await account.push.registration()
                let pools = try await account.push.tokenPools()
                let pending = try await account.push.pendingRevocations().count
                if global.json {
                    var object = registration.map(PushRendering.registration) ?? JSONObject()
                    object["registered"] = .bool(registration != nil)
                    var entries: [JSONValue] = []
                    for pool in pools {
                        var entry = JSONObject()
                        entry["feed_id"] = .string(pool.peer.string)
                        entry["name"] = .string(await account.contacts.displayName(of: pool.peer))
                        entry["issued_unused"] = .integer(Int64(pool.issuedUnused))
                        entry["issued_used"] = .integer(Int64(pool.issuedUsed))
                        entry["held_unused"] = .integer(Int64(pool.heldUnused))
                        entry["held_spent"] = .integer(Int64(pool.heldSpent))
                        entries.append(.object(entry))
                    }
                    object["contacts"] = .array(entries)
                    object["pending_revocations"] = .integer(Int64(pending))
                    Output.json(.object(object))
                    return
                }
                if let registration {
                    Output.line("Registered: gateway \(TerminalText.escaped(registration.gatewayURL)), push service \(TerminalText.escaped(registration.pushServiceURL)).")
                } else {
                    Output.line("Not registered for push knocks (run `kith push register --server URL`). Tokens contacts gave you still work for `kith knock`.")
                }
                if pools.isEmpty { Output.line("No push tokens with anyone yet.") }
                for pool in pools {
                    let name = TerminalText.escaped(await account.contacts.displayName(of: pool.peer))
                    Output.line("  \(name): you gave \(pool.issuedUnused) unused (\(pool.issuedUsed) used); you hold \(pool.heldUnused) to knock on them")
                }
                if pending > 0 { Output.line("\(pending) tokens wait to be revoked at the gateway (`kith push refill` retries).") }
            }
        }
    }
}
