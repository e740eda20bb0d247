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
    /// `kith sync connect HOST:PORT [--contact NAME] [--no-blobs]`.
    struct Connect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Connect to a contact's `kith sync listen` and sync once.",
            discussion: "With --contact the handshake is Noise IK against that contact's key, falling back to XX on a new connection if the listener cannot complete IK (for example after a key rotation)."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        @Argument(help: "The listener's HOST:PORT.")
        var address: String

        @Option(help: "The contact expected to listen (name or feed id): enables the one-round-trip IK handshake.")
        var contact: String?

        func run() async throws {
            try await Output.run {
                let (host, port) = try SyncRun.hostAndPort(address)
                let account = try await openAccount(global)
                await PushAutoRefill.run(account)
                var record: ContactRecord?
                if let contact { record = try await account.contacts.resolve(contact) }
                let agent = SyncAgent(account: account, blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let json = global.json
                let link: SecureLink
                do throws(SecureLinkError) {
                    link = try await agent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
                        try await TCPTransport.connect(host: host, port: port)
                    }, contact: record)
                } catch {
                    throw KithError.sync(.link(error))
                }
                let report = await SyncRun.session(link: link, agent: agent, json: json)
                if !report.completed { throw ExitCode(1) }
            }
        }
    }
}
