import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithTDF
import KithTerminal

extension TDFCommand {
    struct Keygen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a P-256 key pair: the private key (PKCS#8 PEM) goes to a new file readable by you only, the public key (PEM) to standard output."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "The file for the private key (must not exist).")
        var privateKey: String

        func run() async throws {
            try await Output.run {
                let key: NanoTDF.PrivateKey
                do throws(NanoTDFError) { key = try NanoTDF.PrivateKey(generatingOn: .secp256r1) } catch {
                    throw KithError.input(.invalid("cannot make a key: \(error.description)"))
                }
                guard !FileManager.default.fileExists(atPath: privateKey) else {
                    throw KithError.fileSystem(path: privateKey, reason: "already exists; choose a new path")
                }
                guard FileManager.default.createFile(
                    atPath: privateKey, contents: Data(key.pemRepresentation.utf8 + [0x0A]), attributes: [.posixPermissions: 0o600]
                ) else {
                    throw KithError.fileSystem(path: privateKey, reason: "cannot create the file")
                }
                if global.json {
                    Output.json(.object(["public_key_pem": .string(key.publicKey.pemRepresentation), "private_key_file": .string(privateKey)]))
                } else {
                    Output.line(key.publicKey.pemRepresentation)
                }
            }
        }
    }
}
