import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

extension TDFCommand {
    struct Inspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a NanoTDF's header fields (no key needed).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The NanoTDF file (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let nano = try TDFCommand.parse(try TDFCommand.read(file), file: file)
                let fields = TDFCommand.describe(nano)
                if global.json {
                    Output.json(.object(fields))
                } else {
                    for (name, value) in fields.members.sorted(by: { $0.key < $1.key }) {
                        Output.line("\(name): \(TerminalText.escaped(TDFCommand.text(value)))")
                    }
                }
            }
        }
    }
}
