import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

extension TDFCommand {
    struct Decrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt a NanoTDF with the recipient's private key (P-256, P-384 or P-521).",
            discussion: """
                The key is a PEM file (PKCS#8 or SEC1), a raw scalar file, or the scalar in hex. The policy binding, any \
                signature and the payload tag are checked before any plaintext is released; with --dialect arkavo a binding \
                that cannot be verified is reported on standard error (or as "binding": "unverified" with --json). Written to a terminal, the \
                plaintext is shown with control characters escaped; piped or written to a file, it is written as is.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The recipient's private key: a file (PEM or raw scalar) or hex; repeat it to offer several (an L1M header names the one it needs).")
        var key: [String]

        @Option(help: "sdk (OpenTDF SDKs, Kith) or arkavo (files of the Arkavo app, OpenTDFKit).")
        var dialect = TDFDialectOption.sdk

        @Option(name: .shortAndLong, help: "Where to write the plaintext (`-` for standard output).")
        var output = "-"

        @Argument(help: "The NanoTDF file (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let keys = try key.map(TDFCommand.privateKey)
                let nano = try TDFCommand.parse(try TDFCommand.read(file), file: file, options: dialect.dialect.readOptions)
                let result: NanoTDF.DecryptionResult
                do throws(NanoTDFError) { result = try nano.decrypt(usingAnyOf: keys, dialect: dialect.dialect) } catch {
                    throw KithError.input(.invalid("cannot decrypt \(file): \(error.description)\(dialect.hint(after: error))"))
                }
                try TDFCommand.report(result, dialect: dialect, output: output, json: global.json)
            }
        }
    }
}
