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

/// `kith sync`: device-to-device sync with contacts over TCP (docs/sync.md).
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync feeds with a contact over TCP (Noise-encrypted, contacts only).",
        subcommands: [Listen.self, Connect.self, Nearby.self]
    )

    /// Options shared by the sync subcommands.
    struct SessionOptions: ParsableArguments {
        @Flag(name: .customLong("no-blobs"), help: "Skip the blob phase (attachments and avatars stay behind).")
        var noBlobs = false

        @Option(name: .customLong("max-blob-bytes"), help: "Largest blob to ask for or serve, in bytes.")
        var maximumBlobBytes: Int = SyncLimits.defaultMaximumBlobLength
    }

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

    /// `kith sync nearby [--duration S] [--port N] [--group G] [--beacon-port N] [--interface A] [--no-blobs]`.
    struct Nearby: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find contacts on the local network (UDP multicast beacons only contacts recognise) and sync with each.",
            discussion: "Beacons change every 10 minutes and carry one 8-byte tag per contact (padded with random tags), so a stranger on the network learns nothing stable. Each contact found is synced once over TCP."
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var session: SessionOptions

        @Option(help: "Seconds to announce and listen.")
        var duration: Double = 30

        @Option(help: "TCP port of this device's sync listener (0 picks a free one).")
        var port: Int = 7455

        @Option(help: "IPv4 multicast group of the beacons.")
        var group: String = NearbyLimits.defaultNearbyGroup

        @Option(name: .customLong("beacon-port"), help: "UDP port of the beacons.")
        var beaconPort: Int = NearbyLimits.defaultNearbyPort

        @Option(help: "IPv4 address of the interface to use (default: the system's; 127.0.0.1 for one machine).")
        var interface: String?

        func run() async throws {
            try await Output.run {
                guard duration > 0, duration <= 86_400 else { throw KithError.input(.invalid("--duration must be between 0 and 86400 seconds")) }
                let agent = SyncAgent(account: try await openAccount(global), blobs: !session.noBlobs, maximumBlobLength: session.maximumBlobBytes)
                let json = global.json
                let (duration, port, group, beaconPort, interface) = (duration, port, group, beaconPort, interface)
                let datagrams = try await UDPMulticastTransport.open(group: group, port: beaconPort, interfaceAddress: interface)
                let options = NearbyOptions(tcpHost: interface ?? "0.0.0.0", tcpPort: port, duration: duration)
                let results = try await NearbySync(agent: agent, datagrams: datagrams, options: options).run { event in
                    guard !json else { return }
                    SyncRun.describe(event)
                }
                SyncRun.printNearby(results, json: json)
            }
        }
    }
}

/// One sync session with progress on standard error and a summary at the end.
enum SyncRun {
    static func session(link: SecureLink, agent: SyncAgent, json: Bool) async -> SyncSessionReport {
        let progress = SyncProgress(draws: !json)
        let report = await agent.run(link: link, observer: progress.observer)
        // Named after the run: its card phase may have completed a scanned compact card into a contact.
        let peerName = await agent.source.peerName(staticKey: link.peerStaticKey) ?? "contact"
        progress.printSummary(peer: peerName, report: report, json: json)
        return report
    }

    static func hostAndPort(_ address: String) throws -> (String, Int) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (1...65535).contains(port), colon != address.startIndex
        else { throw KithError.input(.invalid("expected HOST:PORT, got \(address)")) }
        return (String(address[..<colon]), port)
    }

    private static let heardOnce = HeardSet()

    /// One line on standard error per noteworthy nearby event.
    static func describe(_ event: NearbySync.Event) {
        switch event {
        case .listening(let port):
            Output.error("kith: announcing to contacts nearby (sync listener on TCP port \(port))")
        case .heard(let contact, let host):
            if heardOnce.insert(contact.feedID.string) { Output.error("kith: found \(TerminalText.escaped(contact.shownName)) at \(TerminalText.escaped(host))") }
        case .sessionStarted(let contact, let initiated):
            Output.error("kith: syncing with \(TerminalText.escaped(contact.shownName)) (\(initiated ? "dialed" : "accepted"))")
        case .sessionFinished(let contact, let report):
            let status = SyncProgress.status(report)
            Output.error("kith: \(TerminalText.escaped(contact.shownName)): \(status); received \(report.messagesAccepted), sent \(report.messagesSent), blobs \(report.blobsReceived)")
        case .duplicateLinkDropped(let contact):
            Output.error("kith: \(TerminalText.escaped(contact.shownName)): both sides dialed; kept one link")
        case .connectFailed(let contact, let reason):
            Output.error("kith: connecting to \(TerminalText.escaped(contact?.shownName ?? "a peer")) failed: \(TerminalText.escaped("\(reason)"))")
        }
    }

    static func printNearby(_ results: [NearbySync.Result], json: Bool) {
        if json {
            let sessions: [JSONValue] = results.map { result in
                var object = JSONObject()
                object["contact"] = .string(result.contact.shownName)
                object["feed_id"] = .string(result.contact.feedID.string)
                object["initiated"] = .bool(result.initiated)
                object["completed"] = .bool(result.report.completed)
                object["status"] = .string(SyncProgress.status(result.report))
                object["refused_by_peer"] = .integer(Int64(result.report.messagesRefusedByPeer))
                object["received"] = .integer(Int64(result.report.messagesAccepted))
                object["sent"] = .integer(Int64(result.report.messagesSent))
                object["blobs_received"] = .integer(Int64(result.report.blobsReceived))
                return .object(object)
            }
            var object = JSONObject()
            object["sessions"] = .array(sessions)
            Output.json(.object(object))
            return
        }
        let completed = results.filter(\.report.completed)
        Output.line("Nearby: synced with \(Set(completed.map(\.contact.feedID.string)).count) contact(s)")
        for result in results {
            let report = result.report
            Output.line("  \(TerminalText.escaped(result.contact.shownName))  \(SyncProgress.status(report))  received \(report.messagesAccepted)  sent \(report.messagesSent)  blobs \(report.blobsReceived)")
        }
    }
}

/// Contacts already reported as found (each is printed once).
final class HeardSet: Sendable {
    private let seen = Mutex<Set<String>>([])

    func insert(_ key: String) -> Bool { seen.withLock { $0.insert(key).inserted } }
}
