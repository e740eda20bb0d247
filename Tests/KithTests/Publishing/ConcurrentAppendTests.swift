import Foundation
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// Two writers on one home (a CLI and an app extension) share the feed's sequence numbers
/// through the store's write transaction (issue 11 item 5).
@Suite struct ConcurrentAppendTests {
    /// Sequence and previous of every exported line.
    static func links(_ lines: [[UInt8]]) throws -> [(sequence: UInt32, id: MessageID, previous: MessageID?)] {
        try lines.map { line in
            switch try FeedEntry.parse(line) {
            case .envelope(let envelope): (envelope.sequence, envelope.messageID, envelope.previous)
            case .stub(let stub): (stub.sequence, stub.messageID, stub.previous)
            case .foreign: throw KithError.input(.invalid("unexpected later-version entry"))
            }
        }
    }

    @Test func twoAccountsOnOneHomePostingConcurrentlyNeitherForkNorGap() async throws {
        let home = AccountHome(directory: FileManager.default.temporaryDirectory.appendingPathComponent("kith-append-\(UUID().uuidString)"))
        defer { try? FileManager.default.removeItem(at: home.directory) }
        _ = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" })
        // Two accounts: two database connections, like two processes.
        let writers = [try await Account.open(home: home, passphrase: { "p" }), try await Account.open(home: home, passphrase: { "p" })]
        let perWriter = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    for round in 0..<perWriter {
                        try await writer.publishing.post("writer \(index) post \(round)", audience: round.isMultiple(of: 2) ? .contacts : .selfOnly)
                    }
                }
            }
            try await group.waitForAll()
        }
        let account = writers[0]
        let lines = try await account.feed.export()
        let links = try Self.links(lines)
        #expect(links.map(\.sequence) == (0..<UInt32(2 * perWriter)).map { $0 })
        for (earlier, later) in zip(links, links.dropFirst()) {
            #expect(later.previous == earlier.id)
        }
        #expect(links.first?.previous == nil)
        #expect(try account.store.forkEvidence(feed: account.feedID).isEmpty)
        #expect(try account.store.followedFeeds().first { $0.feedID == account.feedID }?.isForked == false)
        // A third party verifies and links the whole exported feed.
        let reader = try Account.inMemory()
        let report = try await reader.feed.importVerified(lines: lines, identityKey: account.identity.originalIdentityKey)
        #expect(report.outcomes.allSatisfy { if case .stored = $0 { true } else { false } })
        #expect(try reader.store.head(of: account.feedID)?.sequence == UInt32(2 * perWriter - 1))
    }
}
