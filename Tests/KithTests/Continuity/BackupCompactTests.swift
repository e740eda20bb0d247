import Foundation
import GRDB
import KithContinuity
import KithFeed
import KithIdentity
import Testing
@testable import Kith
@testable import KithStore

/// The compact store records of a backup through the facade: a backup stays close to the size of the stored
/// envelopes, and every carried row, derived columns included, comes back equal (docs/CONTINUITY.md section 2).
@Suite struct BackupCompactTests {
    /// An account following a feed of `count` contacts-audience posts of 420 content bytes (as the bench).
    static func follower(of count: Int) async throws -> (Account, URL) {
        let author = try Identity(seed: try Seed(bytes: [UInt8](repeating: 9, count: 32)))
        var lines: [[UInt8]] = []
        var last: MessageID?
        for index in 0..<count {
            let envelope = try Envelope.sign(UnsignedEnvelope(
                sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last, type: "post",
                audience: .contacts, content: [UInt8](repeating: 0xA5, count: 420)), with: author)
            last = envelope.messageID
            lines.append(envelope.canonicalBytes)
        }
        let folder = BackupRestoreTests.temporary("compact")
        let account = try await Account.create(home: AccountHome(directory: folder.appendingPathComponent("source")),
                                               scrypt: .testing, passphrase: { "p" })
        _ = try await account.feed.importVerified(lines: lines, identityKey: author.publicKeys.identityKey)
        return (account, folder)
    }

    /// The rows of `table` as text; a value sealed at rest (`"s1.…`) only as its column name, since opening an
    /// account may seal a value again under a fresh nonce.
    static func rows(_ store: FeedStore, _ table: String) throws -> Set<[String]> {
        try store.read { db in
            Set(try Row.fetchAll(db, sql: "SELECT * FROM \(table)").map { row in
                row.map { name, value in "\(value)".hasPrefix("\"s1.") ? "\(name)=sealed" : "\(name)=\(value)" }
            })
        }
    }

    @Test func aBackupOfManyMessagesStaysWithinATenthOfTheStoredEnvelopes() async throws {
        let (account, folder) = try await Self.follower(of: 300)
        defer { try? FileManager.default.removeItem(at: folder) }
        let summary = try await account.backup(to: folder.appendingPathComponent("b.kithbackup"), secret: .recoveryKey(BackupRestoreTests.key))
        let ratio = Double(summary.fileBytes) / Double(summary.storedEnvelopeBytes)
        // One row header per table, values only, repeats as one byte and no message id: about 1.06 (1.32 before).
        #expect(ratio < 1.1, "backup is \(ratio)x the stored envelopes")
    }

    @Test func everyCarriedRowComesBackEqualIncludingDerivedMessageIDs() async throws {
        let (alice, _) = try await BackupRestoreTests.aliceWithHistory()
        let file = BackupRestoreTests.temporary("file")
        _ = try await alice.backup(to: file, secret: .recoveryKey(BackupRestoreTests.key))
        let home = AccountHome(directory: BackupRestoreTests.temporary("home"))
        let (restored, _) = try await Account.restore(from: file, secret: .recoveryKey(BackupRestoreTests.key), home: home,
                                                      scrypt: .testing, passphrase: { "new" })
        let messages = try Self.rows(alice.store, "messages")
        #expect(messages.count > 2)
        #expect(try Self.rows(restored.store, "messages") == messages)
        for table in FeedStore.backupCarriedTables {
            let source = try Self.rows(alice.store, table)
            let back = try Self.rows(restored.store, table)
            #expect(source.isSubset(of: back), "\(table) lost rows: \(source.subtracting(back)) vs \(back.subtracting(source))")
        }
    }

    @Test func verifyAndRestoreRefuseAMalformedRowOfAnAuthenticFileBeforeWritingAnything() async throws {
        let folder = BackupRestoreTests.temporary("malformed")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let seed = try Seed(bytes: [UInt8](repeating: 7, count: 32))
        let manifest = BackupManifest(backupID: "", feedID: try Identity(seed: seed).feedID.string, createdAt: 1_800_000_000,
                                      schemaVersion: 1, counts: ["messages": 1], window: nil, includesBlobs: false)
        var writer = try BackupWriter(output: ByteArrayBackupOutput(), secret: .recoveryKey(BackupRestoreTests.key), manifest: manifest)
        try writer.append(BackupRecord(kind: .seed, body: [UInt8](repeating: 7, count: 32)))
        try writer.append(BackupRecord(kind: .storeTableHeader, body: BackupTableHeader(table: "messages", names: ["envelope_json"]).encoded))
        try writer.append(BackupRecord(kind: .storeRow, body: [9]))  // an unknown value tag
        try writer.finish()
        let file = folder.appendingPathComponent("b.kithbackup")
        try Data(try #require(writer.finishedOutput).bytes).write(to: file)

        await #expect(throws: KithError.self) { _ = try await Account.verifyBackup(at: file, secret: .recoveryKey(BackupRestoreTests.key)) }
        let home = AccountHome(directory: folder.appendingPathComponent("home"))
        await #expect(throws: KithError.self) {
            _ = try await Account.restore(from: file, secret: .recoveryKey(BackupRestoreTests.key), home: home, scrypt: .testing, passphrase: { "p" })
        }
        // Refused in the verification pass: the home was never created.
        #expect(!FileManager.default.fileExists(atPath: home.directory.path))
    }
}
