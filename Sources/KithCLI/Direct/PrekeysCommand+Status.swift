import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension PrekeysCommand {
    /// `kith prekeys status`.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the prekey pools with every contact.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let pools = try await account.direct.prekeyPools()
                if global.json {
                    var rows: [JSONValue] = []
                    for pool in pools {
                        var object = JSONObject()
                        object["feed_id"] = .string(pool.peer.string)
                        object["name"] = .string(await account.contacts.displayName(of: pool.peer))
                        object["handed_remaining"] = .integer(Int64(pool.handedRemaining))
                        object["last_batch_size"] = .integer(Int64(pool.lastBatchSize))
                        object["held"] = .integer(Int64(pool.held))
                        object["session"] = .bool(pool.hasSession)
                        object["needs_refill"] = .bool(pool.needsRefill)
                        rows.append(.object(object))
                    }
                    Output.json(.array(rows))
                    return
                }
                if pools.isEmpty { Output.line("No contacts yet. Exchange cards first: kith card / kith contact add CARD") }
                for pool in pools {
                    let name = TerminalText.escaped(await account.contacts.displayName(of: pool.peer))
                    let handed = pool.lastBatchSize == 0 ? "none handed yet" : "\(pool.handedRemaining)/\(pool.lastBatchSize) of yours left"
                    let warning = pool.needsRefill ? "  <- low: run `kith prekeys send \(name)` or hand over `kith prekeys export \(name)`" : ""
                    Output.line("\(name): \(handed), \(pool.held) of theirs held, session \(pool.hasSession ? "established" : "not yet")\(warning)")
                }
            }
        }
    }
}
