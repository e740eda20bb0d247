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
