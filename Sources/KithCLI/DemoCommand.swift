import ArgumentParser
import Foundation
import Kith
import KithDemo

/// `kith demo`: the guided tour.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run a guided demo on two throwaway identities.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            let directory: URL
            if let home = global.home {
                directory = URL(fileURLWithPath: home)
            } else {
                directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-\(UUID().uuidString.prefix(8))")
            }
            _ = try await KithDemo.Demo.run(in: directory) { Output.line($0) }
            _ = try await KithDemo.Demo.runRadio(in: directory) { Output.line($0) }
            Output.line("")
            Output.line("Done. Homes are in \(directory.path). Try: kith --home \(directory.appendingPathComponent("alice").path) log")
        }
    }
}
