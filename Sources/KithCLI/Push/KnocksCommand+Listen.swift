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

extension KnocksCommand {
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Listen on this device's push subscription and print who knocked.",
            discussion: "Knocks are decrypted with the RFC 8291 keys `kith push register` made and mapped to the contact the token was given to. The connection is re-opened with backoff when it drops.")

        @OptionGroup var global: GlobalOptions

        @Option(name: .customLong("sync-with"), help: "After each knock, sync with the contact's `kith sync listen` at HOST:PORT.")
        var syncWith: String?

        @Flag(help: "Return after the first knock.")
        var once = false

        func validate() throws {
            if syncWith != nil, once { throw ValidationError("--sync-with and --once cannot be combined") }
        }

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                guard try await account.push.registration() != nil else { throw PushFlows.FlowError.notRegistered }
                let json = global.json
                let once = once
                let address = try syncWith.map(SyncRun.hostAndPort)
                if !json { Output.error("Listening for knocks (Ctrl-C to stop)…") }
                try await PushFlows.listen(account, onRejected: { error in
                    Output.error("kith: \(TerminalText.escaped(error.description))")
                }) { knock in
                    PushRendering.printKnock(knock, json: json)
                    if let address, let contact = knock.contact {
                        try await KnockSync.run(account: account, host: address.0, port: address.1, contact: contact, json: json)
                    }
                    // A used token is spent: top the contact up (queued for the next sync).
                    _ = try? await PushFlows.refill(account)
                    return once ? .stop : .keepListening
                }
            }
        }
    }
}
