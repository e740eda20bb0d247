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
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Write every held blob to DIR, one file per blob named by its content hash.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The folder to write to (created if needed).")
        var directory: String

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                let url = URL(fileURLWithPath: directory)
                do {
                    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
                    let blobs = try await account.publishing.exportBlobs()
                    for blob in blobs {
                        try Data(blob).write(to: url.appendingPathComponent(BlobCipher.contentHash(of: blob)))
                    }
                    Output.line("Exported \(blobs.count) encrypted blobs to \(directory)")
                } catch let error as KithError {
                    throw error
                } catch {
                    throw KithError.fileSystem(path: directory, reason: error.localizedDescription)
                }
            }
        }
    }
}
