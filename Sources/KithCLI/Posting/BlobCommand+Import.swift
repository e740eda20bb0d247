import ArgumentParser
import Foundation
import KithTerminal
import Kith
import KithDemo
import KithCanonical
import KithFeed
import KithIdentity
import KithStore

extension BlobCommand {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Store encrypted blob files received from a peer.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "Blob files.")
        var files: [String]

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                for file in files { try await account.publishing.importBlob(try Output.readFile(file)) }
                Output.line("Imported \(files.count) blobs")
            }
        }
    }
}
