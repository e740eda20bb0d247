import ArgumentParser
import Foundation
import Kith
import KithCanonical
import KithIdentity
import KithNearby
import KithStore
import KithSync
import KithTerminal
import Synchronization

extension SyncCommand {
    /// `kith sync listen [--port N] [--host ADDRESS] [--once] [--no-blobs]`.
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait for contacts to connect and sync with each (127.0.0.1 unless --host is given)."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        @Option(help: "TCP port to listen on (0 picks a free one, printed on start).")
        var port: Int = 7455

        @Option(help: "Address to bind; use 0.0.0.0 to accept peers on the local network.")
        var host: String = "127.0.0.1"

        @Flag(help: "Stop after the first session.")
        var once = false

        func run() async throws {
            try await Output.run {
                let account = try await openAccount(global)
                await PushAutoRefill.run(account)
                let agent = SyncAgent(account: account, blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let json = global.json
                let (host, port, once) = (host, port, once)
                let listener: TCPSyncListener
                do throws(SyncTransportError) {
                    listener = try await TCPSyncListener.bind(host: host, port: port)
                } catch {
                    throw KithError.sync(.transport(error))
                }
                Output.error("kith: listening on \(host):\(listener.port)")
                // Concurrent handshakes under a deadline, bounded per source (docs/sync.md 10).
                await agent.serve(listener: listener, sessionLimit: once ? 1 : nil, onEvent: { event in
                    Output.error("kith: \(event)")
                }, session: { link in
                    _ = await SyncRun.session(link: link, agent: agent, json: json)
                })
                await listener.close()
            }
        }
    }
}
