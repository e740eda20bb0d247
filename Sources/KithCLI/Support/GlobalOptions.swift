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

    var accountHome: AccountHome { AccountHome.resolve(home) }
}
