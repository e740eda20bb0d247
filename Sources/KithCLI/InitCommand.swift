import ArgumentParser
import Kith
import KithFeed
import KithIdentity

/// `kith init`: creates an identity in the home.
struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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

/// `kith id`: prints the feed id and public keys (no passphrase needed).
struct ID: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show this identity's feed id and public keys.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            let keys = try await Account.publicKeys(home: global.accountHome)
            if global.json {
                Output.json(.object(keys))
            } else {
                Output.line("feed_id:      \(keys["feed_id"]?.stringValue ?? "?")")
                Output.line("identity_key: \(keys["identity_key"]?.stringValue ?? "?")")
                Output.line("dh_key:       \(keys["dh_key"]?.stringValue ?? "?")")
                Output.line("pq_key:       \((keys["pq_key"]?.stringValue ?? "?").prefix(43))… (1,184 bytes)")
            }
        }
    }
}

/// Opens the account of the home, asking for the passphrase when needed.
func openAccount(_ global: GlobalOptions) async throws -> Account {
    try await Account.open(home: global.accountHome, passphrase: { () throws(IdentityError) -> String in
        try PassphraseSource.obtain()
    })
}
