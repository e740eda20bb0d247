import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

extension CircleCommand {
    /// `kith circle add CONTACT [--size N]`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Arm a pool exchange with a contact for the next (or ongoing) sync session between you."
        )

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Option(help: "Keys each side generates for the other (1...65536).")
        var size: Int = Account.defaultCirclePoolSize

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let record = try await account.contacts.resolve(contact)
                try await account.circle.add(record.feedID, poolSize: size)
                if global.json {
                    var object = JSONObject()
                    object["contact"] = .string(record.feedID.string)
                    object["pool_size"] = .integer(Int64(size))
                    object["armed"] = .bool(true)
                    Output.json(.object(object))
                } else {
                    Output.line("Armed: the next sync with \(TerminalText.escaped(record.shownName)) exchanges pools of \(size) keys (they must run `kith circle add` for you too).")
                }
            }
        }
    }
}
