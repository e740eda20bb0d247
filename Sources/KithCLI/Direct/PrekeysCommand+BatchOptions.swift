import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension PrekeysCommand {
    /// Which contact gets a fresh batch, and how many keys.
    struct BatchOptions: ParsableArguments {
        @Argument(help: "The contact: a name or a feed id.")
        var contact: String

        @Option(help: "How many keys (1...8192).")
        var count: Int = Account.defaultPrekeyBatch
    }
}
