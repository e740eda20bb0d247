import ArgumentParser
import Kith
import KithCanonical
import KithStore
import KithTerminal

/// `kith circle`: the inner circle, one-time messages under key pools exchanged in person (docs/TDF.md).
struct CircleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "circle",
        abstract: "The inner circle: one-time messages under key pools exchanged while syncing in person.",
        discussion: """
            Both people run `kith circle add` for each other, then sync (kith sync, nearby or relay): \
            the pools are exchanged inside the authenticated link. Every message uses a fresh key that \
            the reader deletes after decrypting it. Read them with `kith log --with CONTACT`.
            """,
        subcommands: [Add.self, Send.self, Status.self, Revoke.self],
        defaultSubcommand: Status.self
    )
}
