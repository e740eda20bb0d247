import Foundation
import GRDB
import KithAccountFixtures
import KithFeed
import KithGroups
import KithIdentity
import Testing
@testable import Kith
@testable import KithStore

/// Issue 25, item 7: a conversation past its explosion time is exploded by whatever reads it first — every read path
/// of the facade, and the account's opening — with no import or sync in between; its content is deleted, not hidden.
@Suite struct GroupExplosionReadTests {
    /// The facade's read paths that show groups or group messages.
    enum ReadPath: String, CaseIterable, Sendable {
        case groups, group, resolveGroup, groupMessages, timeline
    }

    /// Alice (committer) and Bob in a group "brief" that explodes in an hour; both hold Alice's message `text`, decrypted.
    static func conversation(
        clock: GroupMetadataTests.Clock, text: String = "meet at the bridge"
    ) async throws -> (alice: Account, bob: Account, group: GroupID, message: MessageID) {
        let alice = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)), clock: clock.read)
        let bob = try Account.inMemory(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)), clock: clock.read)
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        try await bob.groups.shareKeyPackage(with: alice.feedID)
        try await GroupConversationTests.deliver(bob, to: alice)
        let group = try await alice.groups.create(name: "brief", explodeAt: MetAccounts.now + 3600)
        try await alice.groups.add(group.id, contacts: [bob.feedID])
        let sent = try await alice.groups.send(group.id, text: text)
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(GroupConversationTests.texts(try await bob.groups.messages(group.id)) == [text])
        return (alice, bob, group.id, sent.messageID)
    }

    /// What one read path shows of the group: its status (nil when the path shows none) and the texts it returns.
    static func read(_ path: ReadPath, _ account: Account, _ group: GroupID) async throws -> (status: GroupRecord.Status?, texts: [String]) {
        switch path {
        case .groups: return (try await account.groups.all().first { $0.id == group }?.status, [])
        case .group: return (try await account.groups.summary(group).status, [])
        case .resolveGroup: return (try await account.groups.resolve("brief").status, [])
        case .groupMessages: return (nil, GroupConversationTests.texts(try await account.groups.messages(group)))
        case .timeline: return (nil, GroupConversationTests.texts(try await account.feed.timeline().filter { $0.audience == "group:" + group.string }))
        }
    }

    /// The store's own view, read past the facade: whether the record says exploded and the message's content is gone.
    static func explodedInStore(_ account: Account, _ group: GroupID, _ message: MessageID) throws -> Bool {
        let status = try account.store.readGroupState { access in try access.group(group.string, loadingState: false)?.status }
        let content = try account.store.message(message)?.content
        return status == .exploded && content == nil
    }

    @Test(arguments: ReadPath.allCases)
    func aMemberReadingPastTheExplosionTimeExplodesTheGroupFirst(path: ReadPath) async throws {
        let clock = GroupMetadataTests.Clock()
        let (_, bob, group, message) = try await Self.conversation(clock: clock)
        clock.advance(by: 7200)
        // No import, no sync, no processing pass: only the read.
        let shown = try await Self.read(path, bob, group)
        #expect(shown.texts.isEmpty, "\(path) shows plaintext past the explosion time")
        if let status = shown.status { #expect(status == .exploded, "\(path) shows the group \(status)") }
        // Exploded by the same routine as a pass: the record says so and the content is gone from the store.
        #expect(try Self.explodedInStore(bob, group, message))
        await #expect(throws: KithError.self) { try await bob.groups.send(group, text: "too late") }
    }

    @Test(arguments: [ReadPath.groups, .groupMessages])
    func theCommitterReadingPastTheExplosionTimeExplodesTheGroupAndRemovesTheOthers(path: ReadPath) async throws {
        let clock = GroupMetadataTests.Clock()
        let (alice, bob, group, message) = try await Self.conversation(clock: clock)
        clock.advance(by: 7200)
        let shown = try await Self.read(path, alice, group)
        #expect(shown.texts.isEmpty)
        if let status = shown.status { #expect(status == .exploded) }
        #expect(try Self.explodedInStore(alice, group, message))
        // The committer's removal reached Bob's device even though Bob's clock is not consulted: he explodes on import.
        clock.now.withLock { $0 = MetAccounts.now }
        try await GroupConversationTests.deliver(alice, to: bob)
        #expect(try Self.explodedInStore(bob, group, message))
    }

    @Test func aGroupNotYetDueStaysReadable() async throws {
        let clock = GroupMetadataTests.Clock()
        let (_, bob, group, _) = try await Self.conversation(clock: clock)
        clock.advance(by: 3599)
        for path in ReadPath.allCases {
            let shown = try await Self.read(path, bob, group)
            if let status = shown.status { #expect(status == .active) }
        }
        #expect(GroupConversationTests.texts(try await bob.groups.messages(group)) == ["meet at the bridge"])
    }

    @Test func anAccountOpenedPastTheExplosionTimeHasTheContentGoneFromItsFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-explode-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let home = AccountHome(directory: directory)
        let clock = GroupMetadataTests.Clock()
        let plaintext = "the vault code is 4417"
        let (group, message, needles) = try await Self.writeConversation(home: home, clock: clock, text: plaintext)
        #expect(try Self.filesHold(needles, in: home), "the needles must be in the files before the explosion, or the scan proves nothing")
        clock.advance(by: 7200)
        let reopened = try await Account.open(home: home, passphrase: { "p" }, clock: clock.read)
        // Nothing read through the facade yet: the sweep on open did it.
        #expect(try Self.explodedInStore(reopened, group, message))
        #expect(try !Self.filesHold(needles, in: home), "the database files still hold the group's content or state")
        // Whatever SQLite the store links, deleted content is zeroed (Debian's has this on by default; others may not).
        #expect(try reopened.store.read { db in try Int.fetchOne(db, sql: "PRAGMA secure_delete") } == 1)
        #expect(try await reopened.groups.messages(group).allSatisfy { $0.content == nil })
    }

    /// Alice on disk with a group of her own that explodes in an hour and one message in it; returns the byte strings
    /// that must be gone from the database files after the explosion: the plaintext, the message's sealed content and
    /// the group's sealed state.
    static func writeConversation(home: AccountHome, clock: GroupMetadataTests.Clock, text: String) async throws -> (GroupID, MessageID, [[UInt8]]) {
        let alice = try await Account.create(home: home, scrypt: .testing, passphrase: { "p" }, clock: clock.read)
        let group = try await alice.groups.create(name: "vault", explodeAt: MetAccounts.now + 3600)
        let sent = try await alice.groups.send(group.id, text: text)
        #expect(GroupConversationTests.texts(try await alice.groups.messages(group.id)) == [text])
        let sealed = try alice.store.read { db in
            (try String.fetchOne(db, sql: "SELECT content_json FROM messages WHERE message_id = ?", arguments: [sent.messageID.string]),
             try Data.fetchOne(db, sql: "SELECT mls_state_blob FROM mls_groups WHERE group_id = ?", arguments: [group.id.string]))
        }
        let content = try #require(sealed.0)
        let state = try #require(sealed.1)
        try alice.store.truncateWriteAheadLog()
        return (group.id, sent.messageID, [Array(text.utf8), Array(content.utf8), Array(state.prefix(64))])
    }

    /// Whether any of the home's SQLite files (database, log) holds one of `needles`.
    static func filesHold(_ needles: [[UInt8]], in home: AccountHome) throws -> Bool {
        let files = try FileManager.default.contentsOfDirectory(at: home.directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("kith.sqlite") }
        for file in files {
            let data = try Data(contentsOf: file)
            if needles.contains(where: { data.range(of: Data($0)) != nil }) { return true }
        }
        return false
    }
}
