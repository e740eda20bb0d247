import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

extension TDFCommand {
    struct Encrypt: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a file for a P-256 public key (L1L, AES-256-GCM with a 128-bit tag, GMAC binding).",
            discussion: """
                The key is a PEM file (SubjectPublicKeyInfo), a raw X9.62 file, or X9.62 bytes in hex. With --dialect arkavo \
                the file is what the Arkavo app's reader opens (L1M with the recipient key; docs/TDF.md, "Dialects").
                """
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The recipient's P-256 public key: a file (PEM or raw X9.62) or hex.")
        var to: String

        @Option(help: "The key access server the header names (any OpenTDF tool needs one; Kith decrypts without it).")
        var kasURL = "https://localhost/kas"

        @Option(help: "The policy embedded in clear.")
        var policy = #"{"body":{"dataAttributes":[],"dissem":[]}}"#

        @Flag(help: "Embed the policy encrypted under the payload key instead.")
        var encryptPolicy = false

        @Option(help: "sdk (OpenTDF SDKs, Kith) or arkavo (an L1M file the Arkavo app's reader opens).")
        var dialect = TDFDialectOption.sdk

        @Option(name: .shortAndLong, help: "Where to write the NanoTDF (`-` for standard output).")
        var output = "-"

        @Argument(help: "The file to encrypt (`-` for standard input).")
        var file: String

        func run() async throws {
            try await Output.run {
                let recipient = try TDFCommand.publicKey(to)
                guard recipient.curve == .secp256r1 else {
                    throw KithError.input(.invalid("Kith writes NanoTDFs to P-256 keys only; this key is on \(recipient.curve)"))
                }
                let configuration = NanoTDF.EncryptionConfiguration(
                    kas: try TDFCommand.locator(kasURL), policy: encryptPolicy ? .encrypted(Array(policy.utf8)) : .plaintext(Array(policy.utf8)),
                    version: dialect == .arkavo ? .v13 : .v12, dialect: dialect.dialect
                )
                let plaintext = try TDFCommand.read(file)
                let nano: NanoTDF
                do throws(NanoTDFError) { nano = try NanoTDF.encrypt(plaintext, to: recipient, configuration: configuration) } catch {
                    throw KithError.input(.invalid("cannot encrypt: \(error.description)"))
                }
                try TDFCommand.write(nano.serialized, to: output, binary: true)
            }
        }
    }
}
