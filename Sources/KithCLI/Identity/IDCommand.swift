import ArgumentParser
import Kith
import KithFeed
import KithIdentity

/// `kith id`: prints the feed id and public keys (no passphrase needed).
struct IDCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "id", abstract: "Show this identity's feed id and public keys.")

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
