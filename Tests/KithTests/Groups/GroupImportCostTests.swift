import GRDB
import Kith
import KithAccountFixtures
import KithFeed
import KithGroups
import Synchronization
import Testing

@testable import Kith
@testable import KithStore

/// What one import costs the store, counted (never timed): the passes after an ingest run only when they have work,
/// and an application message rewrites only the group's ratchets, not its whole state (docs/GROUPS.md, "Cost").
@Suite struct GroupImportCostTests {
    /// The SQL statements `store` runs during `body`.
    static func statements(of store: FeedStore, during body: () async throws -> Void) async throws -> [String] {
        final class Seen: Sendable { let lines = Mutex<[String]>([]) }
        let seen = Seen()
        store.database.inDatabase { db in db.trace { event in seen.lines.withLock { $0.append("\(event)") } } }
        defer { store.database.inDatabase { db in db.trace(nil) } }
        try await body()
        return seen.lines.withLock { $0 }
    }

    static func commits(_ statements: [String]) -> Int { statements.count { $0.hasPrefix("COMMIT") } }
    static func transactions(_ statements: [String]) -> Int { statements.count { $0.hasPrefix("BEGIN") } }

    /// The group's row: the version of its (large) per-epoch part, and its ratchets' version (nil: stored whole).
    static func versions(_ account: Account, _ group: GroupID) throws -> (row: Int64, ratchets: Int64?) {
        try account.store.database.read { db in
            let row = try Int64.fetchOne(db, sql: "SELECT state_version FROM mls_groups WHERE group_id = ?", arguments: [group.string]) ?? -1
            let ratchets = try Int64.fetchOne(db, sql: "SELECT version FROM mls_group_ratchets WHERE group_id = ?", arguments: [group.string])
            return (row, ratchets)
        }
    }

    @Test func anApplicationMessageCostsTheIngestAndOneGroupTransaction() async throws {
        let (alice, others, group) = try await GroupHistoryTests.crowd()
        let bob = others[0]
        await GroupHistoryTests.deliver(alice, to: bob)
        let envelope = try await alice.groups.send(group, text: "counted")
        let statements = try await Self.statements(of: bob.store) {
            _ = try await bob.feed.importKnown(lines: [envelope.canonicalBytes])
        }
        #expect(Self.commits(statements) == 2, "\(statements)")
        // Besides the two writes: the key lookup, the signature check's feed state, and the probe of the passes.
        #expect(Self.transactions(statements) <= 5, "\(statements)")
        #expect(try await GroupHistoryTests.view(bob, group).2 == ["counted"])
    }

    @Test func aGroupPassKeepsTheConnectionsPreparedStatements() async throws {
        // The restored state used to be kept through GRDB's `afterNextTransaction`, a transaction observer: adding one
        // drops every cached statement that deletes rows, so each pass prepared its DELETEs again.
        let (alice, others, group) = try await GroupHistoryTests.crowd()
        let bob = others[0]
        await GroupHistoryTests.deliver(alice, to: bob)
        let sql = "DELETE FROM mls_held WHERE message_id = ?"
        _ = try await bob.feed.importKnown(lines: [try await alice.groups.send(group, text: "one").canonicalBytes])
        let prepared = try bob.store.database.inDatabase { db in ObjectIdentifier(try db.cachedStatement(sql: sql)) }
        _ = try await bob.feed.importKnown(lines: [try await alice.groups.send(group, text: "two").canonicalBytes])
        try await alice.groups.updateKeys(group)
        await GroupHistoryTests.deliver(alice, to: bob)
        let after = try bob.store.database.inDatabase { db in ObjectIdentifier(try db.cachedStatement(sql: sql)) }
        #expect(prepared == after)
        #expect(try await GroupHistoryTests.view(bob, group).2.isSuperset(of: ["one", "two"]))
    }

    @Test func anEntryWithNothingToProcessCostsOnlyItsIngest() async throws {
        let (alice, others, _) = try await GroupHistoryTests.crowd()
        let bob = others[0]
        await GroupHistoryTests.deliver(alice, to: bob)
        let envelope = try await alice.publishing.post("to my contacts", audience: .contacts)
        let statements = try await Self.statements(of: bob.store) {
            _ = try await bob.feed.importKnown(lines: [envelope.canonicalBytes])
        }
        #expect(Self.commits(statements) == 1, "\(statements)")
        #expect(try await bob.feed.timeline(feed: alice.feedID, limit: 1).first?.content != nil)
    }

    @Test func applicationMessagesRewriteOnlyTheRatchetsAndCommitsTheWholeState() async throws {
        let (alice, others, group) = try await GroupHistoryTests.crowd()
        let bob = others[0]
        await GroupHistoryTests.deliver(alice, to: bob)
        let joined = try Self.versions(bob, group)
        #expect(joined.ratchets != nil)
        try await alice.groups.send(group, text: "one")
        try await alice.groups.send(group, text: "two")
        await GroupHistoryTests.deliver(alice, to: bob)
        let read = try Self.versions(bob, group)
        #expect(read.row == joined.row && read.ratchets == joined.ratchets.map { $0 + 1 })
        // Sending too: the sender's ratchet alone.
        let before = try Self.versions(bob, group)
        try await bob.groups.send(group, text: "three")
        let sent = try Self.versions(bob, group)
        #expect(sent.row == before.row && sent.ratchets == before.ratchets.map { $0 + 1 })
        // A commit writes both parts.
        try await alice.groups.updateKeys(group)
        await GroupHistoryTests.deliver(alice, to: bob)
        let committed = try Self.versions(bob, group)
        #expect(committed.row > sent.row && committed.ratchets! > sent.ratchets!)
        try await alice.groups.send(group, text: "four")
        await GroupHistoryTests.deliver(alice, to: bob)
        #expect(try await GroupHistoryTests.view(bob, group).2 == ["one", "two", "three", "four"])
    }

    /// A store written before the ratchets were stored apart holds each group's whole state: it still opens, the next
    /// message is read once, and the state is then stored in two parts.
    @Test func aWholeStateFromBeforeTheSplitKeepsWorking() async throws {
        let (alice, others, group) = try await GroupHistoryTests.crowd()
        let bob = others[0]
        await GroupHistoryTests.deliver(alice, to: bob)
        try await alice.groups.send(group, text: "before")
        await GroupHistoryTests.deliver(alice, to: bob)
        // Rewrite Bob's group as the previous format stored it: the whole serialized state, no ratchets row.
        let record = try #require(try bob.readGroupStore { access in try access.group(group.string) })
        var whole = record
        whole.state = try bob.restoredMembership(record).serialized()
        whole.ratchets = []
        _ = try bob.withGroupStore { access throws(KithError) in try bob.groupStoreCall(access.save(whole, members: nil)) }
        #expect(try Self.versions(bob, group).ratchets == nil)
        try await alice.groups.send(group, text: "after")
        await GroupHistoryTests.deliver(alice, to: bob)
        await GroupHistoryTests.deliver(alice, to: bob)
        #expect(try await GroupHistoryTests.view(bob, group).2 == ["before", "after"])
        #expect(try Self.versions(bob, group).ratchets != nil)
        let again = try await bob.groups.process()
        #expect(again.opened.isEmpty && again.refused.isEmpty)
    }
}
