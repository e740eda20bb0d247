import ArgumentParser
import Foundation
import Kith
import KithDemo
import KithServer
import KithPush
import KithPushDelivery
import Crypto
import AsyncHTTPClient

/// `kith demo`: the guided tour.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "demo", abstract: "Run a guided demo on two throwaway identities.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await Output.run {
            let directory: URL
            if let home = global.home {
                directory = URL(fileURLWithPath: home)
            } else {
                directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-\(UUID().uuidString.prefix(8))")
            }
            // An embedded `kith serve` on a free loopback port, in memory: step 10's strangers reach the invite's creator
            // through it, step 12 pairs through its relay, step 13 knocks through its push gateway and push service (its
            // Web Push provider may reach loopback endpoints: the push service is this same server).
            let server = try Self.embeddedServer()
            try await server.serving { url in
                _ = try await KithDemo.Demo.run(in: directory, serverURL: url) { Output.line($0) }
                _ = try await KithDemo.Demo.runRadio(in: directory) { Output.line($0) }
                _ = try await KithDemo.Demo.runRelay(in: directory, serverURL: url) { Output.line($0) }
                let statistics = server.relayStatistics
                Output.line("The server relayed \(statistics.bytesRelayed) bytes in \(statistics.framesRelayed) frames, all of it Noise ciphertext it cannot read; it stored only the code's pairing and room (no content).")
                _ = try await KithDemo.Demo.runPush(in: directory, serverURL: url) { Output.line($0) }
            }
            _ = try await KithDemo.Demo.runCircle(in: directory) { Output.line($0) }
            _ = try await KithDemo.Demo.runRescue(in: directory) { Output.line($0) }
            Output.line("")
            Output.line("Done. Homes are in \(directory.path). Try: kith --home \(directory.appendingPathComponent("alice").path) log")
        }
    }

    /// The demo's server: rendezvous, relay, push gateway and push service in memory, with a Web Push provider
    /// (a fresh VAPID key) allowed to reach loopback, where the push service is.
    static func embeddedServer() throws -> RendezvousServer {
        let provider = WebPushProvider(
            configuration: try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: "mailto:demo@kith.invalid",
                endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: true)),
            httpClient: .shared)
        return RendezvousServer(
            configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0, push: PushConfiguration(providers: [provider])),
            store: try SQLiteRendezvousStore.open(path: nil), pushStore: try SQLitePushStore.open(path: nil))
    }
}
