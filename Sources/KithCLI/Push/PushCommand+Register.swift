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
    /// `kith push register --server URL [--push-service URL]`.
    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an anonymous gateway account, a push subscription with fresh RFC 8291 keys, and register this device.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "The push gateway (a `kith serve`), e.g. http://127.0.0.1:8080.")
        var server: String

        @Option(name: .customLong("push-service"), help: "The push service (default: the same `kith serve` as --server).")
        var pushService: String?

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await PushFlows.register(account, gatewayURL: server, pushServiceURL: pushService)
                let refilled = try await PushFlows.refill(account)
                if global.json {
                    var object = PushRendering.registration(record)
                    object["refilled"] = PushRendering.refilled(refilled)
                    Output.json(.object(object))
                } else {
                    Output.line("Registered for push knocks: gateway \(TerminalText.escaped(record.gatewayURL)), push service \(TerminalText.escaped(record.pushServiceURL)).")
                    Output.line("The account is anonymous; its password, auth token, subscription secret and decryption keys are sealed in your store.")
                    PushRendering.printRefilled(refilled)
                }
            }
        }
    }
}
