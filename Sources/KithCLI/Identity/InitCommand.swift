import ArgumentParser
import Kith
import KithFeed
import KithIdentity

/// `kith init`: creates an identity in the home.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new identity (seed sealed under a passphrase) in the home directory."
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: "A display name, recorded as the feed's first (self) profile message.")
    var name: String?

    func run() async throws {
        try await Output.run {
            let account = try await Account.create(home: global.accountHome, passphrase: { () throws(IdentityError) -> String in
                try PassphraseSource.obtain(prompt: "New passphrase: ", confirm: true)
            })
            if let name {
                try await account.publishing.publish(.profileUpdate(ProfileUpdate(displayName: name)), audience: .selfOnly)
            }
            if global.json {
                Output.json(account.publicKeysJSON)
            } else {
                Output.line("Created identity \(account.feedID) in \(global.accountHome.directory.path)")
                Output.line("The seed is sealed in identity.vault under your passphrase; nothing secret is stored in plaintext.")
            }
        }
    }
}
