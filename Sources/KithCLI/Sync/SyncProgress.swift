import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithSync
import KithTerminal
import Synchronization

/// Live progress of one sync session (a redrawn line on standard error with a bar for each
/// direction and per-feed counts), and its summary at the end (text, or one JSON object).
///
/// Fed by ``SyncSessionEvent``s: offers tell how many messages each feed will bring, so the
/// receive bar has a total; the send bar's total is what this side queued.
final class SyncProgress: Sendable {
    struct Counts: Sendable {
        var expected = 0
        var received = 0
        var receivedBytes = 0
        var queued = 0
        var sent = 0
        var sentBytes = 0
    }

    private struct State: Sendable {
        var feeds: [String: Counts] = [:]
        var sending: [SyncMessageID: (feed: String, bytes: Int)] = [:]
        var blobsReceived = 0
        var blobBytesReceived = 0
        var blobsSent = 0
        var blobBytesSent = 0
        var lastDraw = 0.0
        var drewLine = false
    }

    private let state = Mutex(State())
    private let draws: Bool

    /// `draws`: redraw the line on standard error (off in `--json` mode); it is drawn only when
    /// standard error is a terminal.
    init(draws: Bool) { self.draws = draws && isatty(STDERR_FILENO) != 0 }

    /// The session observer.
    var observer: @Sendable (SyncSessionEvent) -> Void {
        { [self] event in handle(event) }
    }

    private func handle(_ event: SyncSessionEvent) {
        state.withLock { state in
            switch event {
            case .offerReceived(let feed, _, let messageCount):
                state.feeds[Self.name(feed), default: Counts()].expected += Int(messageCount)
            case .messageSent(let id, let feed, let bytes):
                let name = Self.name(feed)
                state.sending[id] = (name, bytes)
                state.feeds[name, default: Counts()].queued += 1
            case .messageReceived(let message, let result):
                let name = (try? FeedEntry.parse(message.envelope)).map(Self.name(of:)) ?? "unknown"
                guard result != .invalid else { return }
                state.feeds[name, default: Counts()].received += 1
                state.feeds[name, default: Counts()].receivedBytes += message.envelope.count
            case .acknowledged(let ack):
                guard let sent = state.sending.removeValue(forKey: ack.messageID) else { return }
                state.feeds[sent.feed, default: Counts()].sent += 1
                state.feeds[sent.feed, default: Counts()].sentBytes += sent.bytes
            case .blobSent(_, let bytes):
                state.blobsSent += 1
                state.blobBytesSent += bytes
            case .blobReceived(_, let bytes, let stored):
                if stored {
                    state.blobsReceived += 1
                    state.blobBytesReceived += bytes
                }
            case .blobUnavailable:
                return
            }
        }
        draw()
    }

    /// Redraws the progress line at most 10 times a second.
    private func draw() {
        guard draws else { return }
        let now = Date().timeIntervalSince1970
        let line: String? = state.withLock { state in
            guard now - state.lastDraw >= 0.1 else { return nil }
            state.lastDraw = now
            state.drewLine = true
            return Self.progressLine(state.feeds, blobs: (state.blobsReceived, state.blobBytesReceived + state.blobBytesSent))
        }
        if let line { FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8)) }
    }

    /// `sync ↓ [#####.....] 12/24 msgs 7.2 KB  ↑ [##........] 3/15 msgs 1.8 KB  blobs 1 (40.0 KB)  [feed ↓n/N ↑m/M, …]`
    static func progressLine(_ feeds: [String: Counts], blobs: (count: Int, bytes: Int) = (0, 0)) -> String {
        let total = feeds.values.reduce(into: Counts()) {
            $0.expected += $1.expected; $0.received += $1.received; $0.receivedBytes += $1.receivedBytes
            $0.queued += $1.queued; $0.sent += $1.sent; $0.sentBytes += $1.sentBytes
        }
        let perFeed = feeds.keys.sorted().prefix(4).map { name -> String in
            let counts = feeds[name] ?? Counts()
            return "\(name) ↓\(counts.received)/\(counts.expected) ↑\(counts.sent)/\(counts.queued)"
        }.joined(separator: ", ")
        let more = feeds.count > 4 ? ", +\(feeds.count - 4)" : ""
        var line = "sync ↓ \(bar(total.received, of: total.expected)) \(total.received)/\(total.expected) msgs \(kilobytes(total.receivedBytes))"
        line += "  ↑ \(bar(total.sent, of: total.queued)) \(total.sent)/\(total.queued) msgs \(kilobytes(total.sentBytes))"
        if blobs.count > 0 { line += "  blobs \(blobs.count) (\(kilobytes(blobs.bytes)))" }
        return line + "  [\(perFeed)\(more)]"
    }

    /// A 10-cell bar, `[#####.....]`.
    static func bar(_ done: Int, of total: Int, width: Int = 10) -> String {
        let filled = total > 0 ? min(width, done * width / total) : (done > 0 ? width : 0)
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "]"
    }

    /// Clears the progress line and prints the summary (standard output).
    func printSummary(peer: String, report: SyncSessionReport, json: Bool) {
        let snapshot = state.withLock { $0 }
        if snapshot.drewLine { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        var feeds = snapshot.feeds
        var refused: [String: Int] = [:]
        for (feed, count) in report.refusedByFeed {
            refused[Self.name(feed), default: 0] += count
            if feeds[Self.name(feed)] == nil { feeds[Self.name(feed)] = Counts() }
        }
        if json {
            var object = JSONObject()
            object["peer"] = .string(peer)
            object["completed"] = .bool(report.completed)
            object["status"] = .string(Self.status(report))
            if let failure = report.localFailure { object["local_failure"] = .string(failure.description) }
            object["refused_by_peer"] = .integer(Int64(report.messagesRefusedByPeer))
            var withheld = JSONObject()
            for (feed, reason) in report.feedsWithheld { withheld[feed.description] = .string(reason) }
            object["feeds_withheld"] = .object(withheld)
            object["received"] = .integer(Int64(report.messagesAccepted))
            object["duplicates"] = .integer(Int64(report.messagesDuplicate))
            object["invalid"] = .integer(Int64(report.messagesInvalid))
            object["sent"] = .integer(Int64(report.messagesSent))
            object["acknowledged"] = .integer(Int64(report.acknowledgementsReceived))
            object["skipped_held"] = .integer(Int64(report.messagesSkippedAsHeld))
            object["blobs_wanted"] = .integer(Int64(report.blobsWanted))
            object["blobs_received"] = .integer(Int64(report.blobsReceived))
            object["blob_bytes_received"] = .integer(Int64(report.blobBytesReceived))
            object["blobs_sent"] = .integer(Int64(report.blobsSent))
            var perFeed = JSONObject()
            for (name, counts) in feeds {
                var entry = JSONObject()
                entry["offered"] = .integer(Int64(counts.expected))
                entry["received"] = .integer(Int64(counts.received))
                entry["received_bytes"] = .integer(Int64(counts.receivedBytes))
                entry["sent"] = .integer(Int64(counts.sent))
                entry["sent_bytes"] = .integer(Int64(counts.sentBytes))
                entry["refused_by_peer"] = .integer(Int64(refused[name] ?? 0))
                perFeed[name] = .object(entry)
            }
            object["feeds"] = .object(perFeed)
            Output.json(.object(object))
            return
        }
        Output.line("Synced with \(TerminalText.escaped(peer)): \(Self.status(report))")
        for (feed, reason) in report.feedsWithheld.sorted(by: { $0.key.description < $1.key.description }) {
            Output.line("  \(Self.name(feed))  not served to the peer: \(reason)")
        }
        for name in feeds.keys.sorted() {
            let counts = feeds[name] ?? Counts()
            let refusals = refused[name].map { ", \($0) refused by peer" } ?? ""
            Output.line("  \(name)  received \(counts.received)/\(counts.expected) (\(Self.kilobytes(counts.receivedBytes)))  sent \(counts.sent) (\(Self.kilobytes(counts.sentBytes)))\(refusals)")
        }
        Output.line("  total    received \(report.messagesAccepted) new, \(report.messagesDuplicate) already held, \(report.messagesInvalid) invalid; sent \(report.messagesSent), \(report.acknowledgementsReceived) acknowledged, \(report.messagesRefusedByPeer) refused by peer, \(report.messagesSkippedAsHeld) skipped (peer held them)")
        if report.blobsWanted > 0 || report.blobsSent > 0 {
            Output.line("  blobs    received \(report.blobsReceived) of \(report.blobsWanted) wanted (\(Self.kilobytes(report.blobBytesReceived))); sent \(report.blobsSent) (\(Self.kilobytes(snapshot.blobBytesSent)))")
        }
    }

    /// One word or phrase for how a session ended: `complete` only when the exchange ran to its
    /// end and the peer refused nothing; otherwise why not (local store failure first).
    static func status(_ report: SyncSessionReport) -> String {
        if report.completed { return "complete" }
        if let failure = report.localFailure { return "failed locally (\(failure))" }
        if let violation = report.violation { return "interrupted (\(violation))" }
        if let interruption = report.interruption { return "interrupted (\(interruption))" }
        if report.messagesRefusedByPeer > 0 { return "incomplete (the peer refused \(report.messagesRefusedByPeer) message(s))" }
        return "interrupted (closed)"
    }

    static func kilobytes(_ bytes: Int) -> String {
        String(format: "%.1f KB", Double(bytes) / 1000)
    }

    /// The first 8 characters of a feed id (as `kith` prints feeds elsewhere).
    static func name(_ feed: FeedID) -> String {
        String(feed.string.prefix(8))
    }

    static func name(of entry: FeedEntry) -> String {
        entry.feedID.map(name) ?? "unknown"
    }
}
