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
    /// `kith push refill`.
    struct Refill: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Issue fresh tokens to every contact holding fewer than 5 and queue them in push_tokens direct messages.",
            discussion: "Each contact gets tokens of its own. The messages travel with your next sync. Pending revocations are retried.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                guard try await account.push.registration() != nil else { throw PushFlows.FlowError.notRegistered }
                let refilled = try await PushFlows.refill(account)
                if global.json {
                    Output.json(.object(["refilled": PushRendering.refilled(refilled)]))
                } else {
                    PushRendering.printRefilled(refilled)
                }
            }
        }
    }
}
