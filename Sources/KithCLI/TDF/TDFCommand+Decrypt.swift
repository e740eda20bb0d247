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
                signature and the payload tag are checked before any plaintext is released. Written to a terminal, the \
                plaintext is shown with control characters escaped; piped or written to a file, it is written as is.
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The recipient's private key: a file (PEM or raw scalar) or hex.")
        var key: String

        @Option(name: .shortAndLong, help: "Where to write the plaintext (`-` for standard output).")
        var output = "-"

        @Argument(help: "The NanoTDF file (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let recipient = try TDFCommand.privateKey(key)
                let nano = try TDFCommand.parse(try TDFCommand.read(file), file: file)
                let plaintext: [UInt8]
                do throws(NanoTDFError) { plaintext = try nano.decrypt(using: recipient) } catch {
                    throw KithError.input(.invalid("cannot decrypt \(file): \(error.description)"))
                }
                try TDFCommand.write(plaintext, to: output, binary: false)
            }
        }
    }
}
