import ArgumentParser
import Foundation
import Kith
import KithDemo
import KithServer

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
            // An embedded rendezvous server on a free loopback port, in memory: step 10's strangers reach the invite's
            // creator through it, and step 11 pairs through it.
            let server = RendezvousServer(configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0), store: try SQLiteRendezvousStore.open(path: nil))
            try await server.serving { url in
                _ = try await KithDemo.Demo.run(in: directory, serverURL: url) { Output.line($0) }
                _ = try await KithDemo.Demo.runRadio(in: directory) { Output.line($0) }
                _ = try await KithDemo.Demo.runRelay(in: directory, serverURL: url) { Output.line($0) }
            }
            let statistics = server.relayStatistics
            Output.line("The server relayed \(statistics.bytesRelayed) bytes in \(statistics.framesRelayed) frames, all of it Noise ciphertext it cannot read; it stored only the code's pairing and room (no content).")
            _ = try await KithDemo.Demo.runCircle(in: directory) { Output.line($0) }
            Output.line("")
            Output.line("Done. Homes are in \(directory.path). Try: kith --home \(directory.appendingPathComponent("alice").path) log")
        }
    }
}
