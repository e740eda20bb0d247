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
    struct Get: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "get", abstract: "Decrypt an attachment of a post you can read.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The post's message id.")
        var message: String

        @Option(help: "Which attachment (from 0).")
        var index: Int = 0

        @Option(help: "Output file.")
        var out: String

        func run() async throws {
            try await Output.run {
                let id = try parseMessageID(message)
                let account = try await openAccount(global)
                let data = try await account.publishing.attachment(of: id, index: index)
                do { try Data(data).write(to: URL(fileURLWithPath: out)) } catch {
                    throw KithError.fileSystem(path: out, reason: error.localizedDescription)
                }
                Output.line("Wrote \(data.count) bytes to \(out)")
            }
        }
    }
}
