import Foundation
import KithAccountFixtures
import KithContinuity
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// `Account.backup(to:…)` and `Account.restore(from:…)` (docs/CONTINUITY.md).
@Suite struct BackupRestoreTests {
    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kith-backup-\(name)-\(UUID().uuidString)")
    }

    static let key = RecoveryKey.generate()

    /// Alice and Bob met; Alice posted and sent Bob a direct message (so she holds sessions and prekeys).
    static func aliceWithHistory() async throws -> (Account, Account) {
        let (alice, bob) = try await MetAccounts.met()
        try await alice.publishing.post("one", audience: .contacts)
        try await alice.publishing.post("two", audience: .selfOnly)
        _ = try await bob.direct.sendPrekeys(to: alice.feedID)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        _ = try await alice.direct.send("hello bob", to: bob.feedID)
        return (alice, bob)
    }

    @Test func restoreCarriesIdentityContactsAndMessagesButNoSessionOrPrekeySecrets() async throws {
        let (alice, bob) = try await Self.aliceWithHistory()
        let before = try await alice.feed.timeline().count
        let file = Self.temporary("file")
        let summary = try await alice.backup(to: file, secret: .recoveryKey(Self.key))
        #expect(summary.manifest.feedID == alice.feedID.string)
        #expect(summary.fileBytes > 0)
        let home = AccountHome(directory: Self.temporary("home"))
        let (restored, report) = try await Account.restore(
            from: file, secret: .recoveryKey(Self.key), home: home, expectedFeedID: alice.feedID, scrypt: .testing, passphrase: { "new" })
        #expect(restored.feedID == alice.feedID)
        #expect(restored.identity.publicKeys.identityKeyString == alice.identity.publicKeys.identityKeyString)
        #expect(try await restored.feed.timeline().count == before)
        #expect(try await restored.contacts.all().contains { $0.feedID == bob.feedID })
        #expect(report.importedRows["messages", default: 0] > 0)
        for table in FeedStore.backupReestablishedTables {
            #expect(try restored.store.backupRowCount(table) == 0, "\(table) was carried")
        }
        // The source did hold such secrets: the scan above is meaningful.
        #expect(try alice.store.backupRowCount("dr_sessions") > 0)
        // The restored home opens with the new passphrase.
        let reopened = try await Account.open(home: home, passphrase: { "new" })
        #expect(reopened.feedID == alice.feedID)
        #expect(try await Account.verifyBackup(at: file, secret: .recoveryKey(Self.key)).feedID == alice.feedID.string)
    }

    @Test func wrongKeyOtherIdentityAndNonEmptyHomeAreRefusedAndWriteNothing() async throws {
        let (alice, bob) = try await Self.aliceWithHistory()
        let file = Self.temporary("file")
        _ = try await alice.backup(to: file, secret: .recoveryKey(Self.key))
        let home = AccountHome(directory: Self.temporary("home"))
        await #expect(throws: KithError.self) {
            _ = try await Account.restore(from: file, secret: .recoveryKey(RecoveryKey.generate()), home: home, scrypt: .testing, passphrase: { "p" })
        }
        #expect(!FileManager.default.fileExists(atPath: home.vaultURL.path))
        do {
            _ = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: home, expectedFeedID: bob.feedID,
                                          scrypt: .testing, passphrase: { "p" })
            Issue.record("another identity's backup was restored")
        } catch {
            guard case .continuity(.otherIdentity) = error else { Issue.record("unexpected \(error)"); return }
        }
        #expect(!FileManager.default.fileExists(atPath: home.vaultURL.path))
        try FileManager.default.createDirectory(at: home.directory, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: home.directory.appendingPathComponent("something"))
        do {
            _ = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: home, scrypt: .testing, passphrase: { "p" })
            Issue.record("a non-empty home was restored into")
        } catch {
            guard case .continuity(.homeNotEmpty) = error else { Issue.record("unexpected \(error)"); return }
        }
        // A damaged file is refused before the home is written.
        var bytes = Array(try Data(contentsOf: file))
        bytes[bytes.count - 3] ^= 1
        try Data(bytes).write(to: file)
        let other = AccountHome(directory: Self.temporary("home2"))
        await #expect(throws: KithError.self) {
            _ = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: other, scrypt: .testing, passphrase: { "p" })
        }
        #expect(!FileManager.default.fileExists(atPath: other.vaultURL.path))
    }

    @Test func aRestoredAccountMayNotPostUntilItRotatesForDeviceMigration() async throws {
        let (alice, _) = try await Self.aliceWithHistory()
        let file = Self.temporary("file")
        _ = try await alice.backup(to: file, secret: .recoveryKey(Self.key))
        let home = AccountHome(directory: Self.temporary("home"))
        let (restored, report) = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: home, scrypt: .testing, passphrase: { "p" })
        #expect(restored.isAwaitingHeadAfterRestore)
        do {
            try await restored.publishing.post("too early", audience: .contacts)
            Issue.record("a restored account posted before learning its head")
        } catch {
            guard case .continuity(.restoredHeadUnknown(let sequence)) = error else { Issue.record("unexpected \(error)"); return }
            #expect(sequence == report.ownHead)
        }
        try await restored.rotation.rotate(reason: .deviceMigration)
        #expect(!restored.isAwaitingHeadAfterRestore)
        try await restored.publishing.post("after the migration", audience: .contacts)
    }

    @Test func aStaleBackupRestoredWhileTheOldDeviceKeptPostingLeavesVisibleForkEvidence() async throws {
        let (alice, bob) = try await Self.aliceWithHistory()
        let file = Self.temporary("file")
        _ = try await alice.backup(to: file, secret: .recoveryKey(Self.key))
        // The old device keeps posting after the backup; Bob sees it.
        try await alice.publishing.post("from the old device", audience: .contacts)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try bob.store.forkEvidence(feed: alice.feedID).isEmpty)

        let home = AccountHome(directory: Self.temporary("home"))
        let (restored, _) = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: home, scrypt: .testing, passphrase: { "p" })
        // The migration rotation takes the sequence the old device already used: Bob must see the conflict.
        try await restored.rotation.rotate(reason: .deviceMigration)
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        #expect(!(try bob.store.forkEvidence(feed: alice.feedID).isEmpty))

        // Bob's side lists the fork (never resolved silently) until he acknowledges it; the evidence stays.
        let open = try await bob.feed.forks()
        #expect(open.map(\.feedID) == [alice.feedID])
        #expect(open.first?.acknowledgedAt == nil)
        #expect(try await bob.feed.acknowledgeForks(of: alice.feedID) == 1)
        #expect(try await bob.feed.forks().isEmpty)
        let all = try await bob.feed.forks(includeAcknowledged: true)
        #expect(all.count == 1 && all.first?.acknowledgedAt != nil)
        #expect(try await bob.feed.acknowledgeForks(of: alice.feedID) == 0)
    }

    @Test func theGuardLiftsOnceTheRestoredAccountLearnsANewerOwnHead() async throws {
        let (alice, _) = try await Self.aliceWithHistory()
        let file = Self.temporary("file")
        _ = try await alice.backup(to: file, secret: .recoveryKey(Self.key))
        try await alice.publishing.post("from the old device", audience: .contacts)
        let home = AccountHome(directory: Self.temporary("home"))
        let (restored, _) = try await Account.restore(from: file, secret: .recoveryKey(Self.key), home: home, scrypt: .testing, passphrase: { "p" })
        _ = try await restored.feed.importKnown(lines: try await alice.feed.export())
        try await restored.publishing.post("continues the old device's chain", audience: .contacts)
        #expect(!restored.isAwaitingHeadAfterRestore)
        #expect(try restored.store.forkEvidence(feed: alice.feedID).isEmpty)
    }
}
