import ArgumentParser
import Foundation
import Kith
import Logging

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: "The Kith home directory (default: $KITH_HOME, else ~/.kith).")
    var home: String?

    @Flag(name: .long, help: "Print machine-readable JSON.")
    var json = false

    @Option(name: .customLong("persona-id"), help: "Act as this persona (its id or feed id from `kith personas`), not as the main identity.")
    var personaID: String?

    var accountHome: AccountHome { AccountHome.resolve(home) }
}
