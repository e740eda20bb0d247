import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension ProfileCommand {
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Publish your display name and avatar to your contacts.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "Display name (at most 64 characters).")
        var name: String?

        @Option(help: "An image file; stored encrypted, its hash goes in the profile.")
        var avatar: String?

        func run() async throws {
            try await Output.run {
                guard name != nil || avatar != nil else { throw KithError.input(.invalid("give --name, --avatar or both")) }
                let image = try avatar.map { try Output.readFile($0) }
                let account = try await openAccount(global)
                let envelope = try await account.publishing.setProfile(displayName: name, avatar: image)
                Output.published(envelope, json: global.json, what: "Profile updated")
            }
        }
    }
}
