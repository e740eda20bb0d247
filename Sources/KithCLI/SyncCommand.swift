import ArgumentParser
import Dispatch
import Foundation
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithSync
import Synchronization

/// `kith sync`: device-to-device sync with contacts over TCP (docs/sync.md).
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync feeds with a contact over TCP (Noise-encrypted, contacts only).",
        subcommands: [Listen.self, Connect.self]
    )

    /// `kith sync listen [--port N] [--host ADDRESS] [--once]`.
    struct Listen: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait for contacts to connect and sync with each (127.0.0.1 unless --host is given)."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "TCP port to listen on (0 picks a free one, printed on start).")
        var port: Int = 7455

        @Option(help: "Address to bind; use 0.0.0.0 to accept peers on the local network.")
        var host: String = "127.0.0.1"

        @Flag(help: "Stop after the first session.")
        var once = false

        func run() throws {
            try Output.run {
                let account = try openAccount(global)
                let json = global.json
                let (host, port, once) = (host, port, once)
                try runBlocking {
                    let listener = try await TCPSyncListener.bind(host: host, port: port)
                    Output.error("kith: listening on \(host):\(listener.port)")
                    for await transport in listener.connections {
                        _ = await SyncRun.session(transport: transport, account: account, initiator: false, json: json)
                        if once { break }
                    }
                    await listener.close()
                }
            }
        }
    }

    /// `kith sync connect HOST:PORT`.
    struct Connect: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Connect to a contact's `kith sync listen` and sync once.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The listener's HOST:PORT.")
        var address: String

        func run() throws {
            try Output.run {
                guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
                      (1...65535).contains(port), colon != address.startIndex
                else { throw KithError.invalidInput("expected HOST:PORT, got \(address)") }
                let host = String(address[..<colon])
                let account = try openAccount(global)
                let json = global.json
                let completed = try runBlocking { () async throws -> Bool in
                    let transport = try await TCPTransport.connect(host: host, port: port)
                    let report = await SyncRun.session(transport: transport, account: account, initiator: true, json: json)
                    return report?.completed ?? false
                }
                if !completed { throw ExitCode(1) }
            }
        }
    }
}

/// One sync session with progress on standard error and a summary at the end.
enum SyncRun {
    static func session(transport: TCPTransport, account: Account, initiator: Bool, json: Bool) async -> SyncSessionReport? {
        let source = account.makeSyncSource()
        let configuration = SecureLinkConfiguration(localStatic: account.identity.dhKey) { source.isContact(staticKey: $0) }
        let link: SecureLink
        do {
            link = initiator
                ? try await SecureLink.connect(over: transport, configuration: configuration)
                : try await SecureLink.accept(over: transport, configuration: configuration)
        } catch {
            Output.error("kith: sync with \(transport.remoteDescription) failed: \(error)")
            return nil
        }
        let peerName = source.contact(staticKey: link.peerStaticKey)?.shownName ?? "contact"
        let progress = SyncProgressSource(inner: source)
        let report = await SyncSession(link: link, source: progress, clock: SystemSyncClock()).run()
        progress.printSummary(peer: peerName, report: report, json: json)
        return report
    }
}

/// Forwards to the store source while counting messages and bytes per feed, redrawing one
/// progress line on standard error.
final class SyncProgressSource: SyncFeedSource {
    struct Counts: Sendable {
        var received = 0
        var receivedBytes = 0
        var sent = 0
        var sentBytes = 0
    }

    private struct State: Sendable {
        var feeds: [String: Counts] = [:]
        var sending: [SyncMessageID: (feed: String, bytes: Int)] = [:]
        var lastDraw = 0.0
    }

    private let inner: StoreSyncSource
    private let state = Mutex(State())

    init(inner: StoreSyncSource) { self.inner = inner }

    func followedFeeds(for peer: SyncPeer) async -> [SyncFeedState] { await inner.followedFeeds(for: peer) }

    func outgoing(feed: SyncFeedID, above haveSequence: UInt32?, for peer: SyncPeer) async -> SyncFeedBatch? {
        let batch = await inner.outgoing(feed: feed, above: haveSequence, for: peer)
        let name = Self.name(feed.bytes)
        state.withLock { state in
            for envelope in batch?.envelopes ?? [] {
                state.sending[SyncMessageID(envelope: envelope.bytes)] = (name, envelope.bytes.count)
            }
        }
        return batch
    }

    func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async -> [SyncIngestResult] {
        let results = await inner.ingest(messages, from: peer)
        state.withLock { state in
            for (message, result) in zip(messages, results) where result != .invalid {
                let name = (try? FeedEntry.parse(message.envelope)).map(Self.name(of:)) ?? "unknown"
                state.feeds[name, default: Counts()].received += 1
                state.feeds[name, default: Counts()].receivedBytes += message.envelope.count
            }
        }
        draw()
        return results
    }

    func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async {
        await inner.acknowledged(messageID, status: status, by: peer)
        state.withLock { state in
            guard let sent = state.sending.removeValue(forKey: messageID) else { return }
            state.feeds[sent.feed, default: Counts()].sent += 1
            state.feeds[sent.feed, default: Counts()].sentBytes += sent.bytes
        }
        draw()
    }

    /// Redraws the progress line at most 10 times a second.
    private func draw() {
        let now = Date().timeIntervalSince1970
        let line: String? = state.withLock { state in
            guard now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            return Self.progressLine(state.feeds)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    static func progressLine(_ feeds: [String: Counts]) -> String {
        let total = feeds.values.reduce(into: Counts()) {
            $0.received += $1.received; $0.receivedBytes += $1.receivedBytes; $0.sent += $1.sent; $0.sentBytes += $1.sentBytes
        }
        let perFeed = feeds.keys.sorted().prefix(4).map { name -> String in
            let counts = feeds[name] ?? Counts()
            return "\(name) ↓\(counts.received) ↑\(counts.sent)"
        }.joined(separator: ", ")
        return "sync: ↓ \(total.received) msgs \(kilobytes(total.receivedBytes)), ↑ \(total.sent) msgs \(kilobytes(total.sentBytes))  [\(perFeed)]"
    }

    func printSummary(peer: String, report: SyncSessionReport, json: Bool) {
        let feeds = state.withLock { $0.feeds }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        if json {
            var object = JSONObject()
            object["peer"] = .string(peer)
            object["completed"] = .bool(report.completed)
            object["received"] = .integer(Int64(report.messagesAccepted))
            object["duplicates"] = .integer(Int64(report.messagesDuplicate))
            object["invalid"] = .integer(Int64(report.messagesInvalid))
            object["sent"] = .integer(Int64(report.messagesSent))
            object["acknowledged"] = .integer(Int64(report.acknowledgementsReceived))
            var perFeed = JSONObject()
            for (name, counts) in feeds {
                var entry = JSONObject()
                entry["received"] = .integer(Int64(counts.received))
                entry["received_bytes"] = .integer(Int64(counts.receivedBytes))
                entry["sent"] = .integer(Int64(counts.sent))
                entry["sent_bytes"] = .integer(Int64(counts.sentBytes))
                perFeed[name] = .object(entry)
            }
            object["feeds"] = .object(perFeed)
            Output.json(.object(object))
            return
        }
        let status = report.completed ? "complete" : "interrupted (\(report.interruption.map { "\($0)" } ?? report.violation.map { "\($0)" } ?? "closed"))"
        Output.line("Synced with \(peer): \(status)")
        for name in feeds.keys.sorted() {
            let counts = feeds[name] ?? Counts()
            Output.line("  \(name)  received \(counts.received) (\(Self.kilobytes(counts.receivedBytes)))  sent \(counts.sent) (\(Self.kilobytes(counts.sentBytes)))")
        }
        Output.line("  total    received \(report.messagesAccepted) new, \(report.messagesDuplicate) already held, \(report.messagesInvalid) invalid; sent \(report.messagesSent), \(report.acknowledgementsReceived) acknowledged")
    }

    static func kilobytes(_ bytes: Int) -> String {
        String(format: "%.1f KB", Double(bytes) / 1000)
    }

    /// The first 8 characters of a feed id (as `kith` prints feeds elsewhere).
    static func name(_ raw: [UInt8]) -> String {
        (try? FeedID(rawBytes: raw)).map { String($0.string.prefix(8)) } ?? "unknown"
    }

    static func name(of entry: FeedEntry) -> String {
        switch entry {
        case .envelope(let envelope): String(envelope.feedID.string.prefix(8))
        case .stub(let stub): String(stub.feedID.string.prefix(8))
        case .foreign(let foreign): foreign.feedID.map { String($0.string.prefix(8)) } ?? "unknown"
        }
    }
}

