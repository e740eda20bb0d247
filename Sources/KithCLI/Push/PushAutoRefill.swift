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

/// The automatic refill `kith sync` runs before a session once registered, so the `push_tokens` messages
/// travel in that very session. A gateway that cannot be reached only prints a warning.
enum PushAutoRefill {
    static func run(_ account: Account) async {
        guard (try? await account.push.registration()) != nil else { return }
        do {
            _ = try await PushFlows.refill(account)
        } catch {
            Output.error("kith: warning: push tokens not refilled: \(TerminalText.escaped("\(error)"))")
        }
    }
}
