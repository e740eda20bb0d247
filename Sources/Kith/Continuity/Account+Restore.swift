import Foundation
import KithCanonical
import KithContinuity
import KithIdentity
import KithStore

/// `Account.restore(from:…)`: a backup into a new, empty home (docs/CONTINUITY.md, "Restore").
extension Account {
    /// Opens and fully verifies the backup at `url` (nothing is written unless every chunk authenticates), then
    /// writes a new home: the vault (the seed under a new `passphrase`), the rotated key seeds, the public keys, a
    /// fresh store with the carried rows, and the restored-head marker. Ratchet sessions, prekeys, one-time pools
    /// and MLS state are never in a backup; they are re-established (see the table in docs/CONTINUITY.md).
    ///
    /// - Parameters:
    ///   - url: The backup file.
    ///   - secret: The recovery key or passphrase the backup was sealed under.
    ///   - home: The new home; it must be empty.
    ///   - expectedFeedID: When given, a backup of another identity is refused.
    ///   - scrypt: The cost of the new vault's passphrase key.
    ///   - passphrase: Asked once, for the new vault.
    ///   - progress: Called with records done and the total while the backup is read.
    ///   - clock: Seconds since 1970, for the restored account.
    /// - Returns: The restored account and what was carried and what must be re-established.
    public static func restore(
        from url: URL, secret: BackupSecret, home: AccountHome, expectedFeedID: FeedID? = nil,
        scrypt: ScryptParameters = .interactive, passphrase: @escaping @Sendable () throws(IdentityError) -> String,
        progress: BackupProgress? = nil,
        clock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }
    ) async throws(KithError) -> (account: Account, report: RestoreReport) {
        try await BlockingWork.run { () throws(KithError) in
            try restoreBlocking(from: url, secret: secret, home: home, expectedFeedID: expectedFeedID, scrypt: scrypt,
                                passphrase: passphrase, progress: progress, clock: clock)
        }
    }

    /// Verifies a backup without restoring it: every chunk and record is checked; returns the manifest.
    public static func verifyBackup(at url: URL, secret: BackupSecret, progress: BackupProgress? = nil) async throws(KithError) -> BackupManifest {
        try await BlockingWork.run { () throws(KithError) in
            try withBackupReader(url, secret: secret) { (reader: inout BackupReader<FileHandleBackupInput>) throws(KithError) in
                var done: UInt64 = 0
                let total = UInt64(reader.manifest.counts.values.reduce(0, +))
                var rows = BackupRowDecoder()
                while let record = try nextRecord(&reader) {
                    try checkStoreRecord(record, with: &rows)
                    done += 1
                    if done % 1000 == 0 { progress?(done, total) }
                }
                return reader.manifest
            }
        }
    }

    /// The next record of `reader` (nil after the end record), with the error as a `KithError`.
    static func nextRecord(_ reader: inout BackupReader<FileHandleBackupInput>) throws(KithError) -> BackupRecord? {
        do throws(BackupError) { return try reader.next() } catch { throw .continuity(.backup(error)) }
    }

    /// Decodes a table header or store row record with `rows` (other kinds pass): a verification reads every row
    /// as a restore would, so a malformed row is found before anything is written.
    @discardableResult
    static func checkStoreRecord(_ record: BackupRecord, with rows: inout BackupRowDecoder) throws(KithError) -> BackupStoreRow? {
        do throws(StoreError) {
            switch record.kind {
            case .storeTableHeader: try rows.readHeader(record.body)
            case .storeRow: return try rows.readRow(record.body)
            default: break
            }
        } catch {
            throw .store(error)
        }
        return nil
    }

    static func withBackupReader<T>(
        _ url: URL, secret: BackupSecret, _ body: (inout BackupReader<FileHandleBackupInput>) throws(KithError) -> T
    ) throws(KithError) -> T {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .input(.file(path: url.path, reason: "cannot be read"))
        }
        defer { try? handle.close() }
        var reader: BackupReader<FileHandleBackupInput>
        do throws(BackupError) { reader = try BackupReader(input: FileHandleBackupInput(handle), secret: secret) } catch {
            throw .continuity(.backup(error))
        }
        return try body(&reader)
    }

    static func restoreBlocking(
        from url: URL, secret: BackupSecret, home: AccountHome, expectedFeedID: FeedID?, scrypt: ScryptParameters,
        passphrase: @escaping @Sendable () throws(IdentityError) -> String, progress: BackupProgress?,
        clock: @escaping @Sendable () -> Int64
    ) throws(KithError) -> (account: Account, report: RestoreReport) {
        let fileManager = FileManager.default
        if let entries = try? fileManager.contentsOfDirectory(atPath: home.directory.path), !entries.isEmpty {
            throw .continuity(.homeNotEmpty(path: home.directory.path))
        }
        // Pass 1: authenticate everything and collect the identity records.
        var seedBytes: [UInt8]?
        var sealedKeySeeds: [UInt8]?
        var groups: [(groupID: String, name: String?)] = []
        var groupMembers: [(groupID: String, members: [String], committer: String?)] = []
        let manifest = try withBackupReader(url, secret: secret) { (reader: inout BackupReader<FileHandleBackupInput>) throws(KithError) in
            var rows = BackupRowDecoder()
            while let record = try nextRecord(&reader) {
                switch record.kind {
                case .seed: seedBytes = record.body
                case .rotatedKeySeed: sealedKeySeeds = record.body
                case .groupSummary:
                    if let object = (try? CanonicalJSON.parse(record.body))?.objectValue, let id = object["group_id"]?.stringValue {
                        groups.append((id, object["name"]?.stringValue))
                        groupMembers.append((id, object["members"]?.arrayValue?.compactMap(\.stringValue) ?? [], object["committer"]?.stringValue))
                    }
                default: try checkStoreRecord(record, with: &rows)
                }
            }
            return reader.manifest
        }
        guard let seedBytes else { throw .continuity(.inconsistent("the backup holds no seed")) }
        let seed: Seed
        do throws(IdentityError) { seed = try Seed(bytes: seedBytes) } catch { throw .continuity(.inconsistent("the seed record is malformed")) }
        let identity: Identity
        do throws(IdentityError) { identity = try Identity(seed: seed) } catch { throw .identity(error) }
        guard identity.feedID.string == manifest.feedID else {
            throw .continuity(.inconsistent("the seed is of \(identity.feedID.string), the manifest names \(manifest.feedID)"))
        }
        if let expectedFeedID, expectedFeedID.string != manifest.feedID {
            throw .continuity(.otherIdentity(expected: expectedFeedID.string, found: manifest.feedID))
        }

        // Pass 2: write the home; on any failure remove what was written.
        var created = false
        do throws(KithError) {
            do {
                try fileManager.createDirectory(at: home.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw KithError.fileSystem(path: home.directory.path, reason: error.localizedDescription)
            }
            created = true
            let vault = FileKeyVault(url: home.vaultURL, parameters: scrypt, passphrase: passphrase)
            do throws(IdentityError) { try vault.storeSeed(seed) } catch { throw KithError.vault(error) }
            if let sealedKeySeeds {
                do {
                    try Data(sealedKeySeeds).write(to: home.rotatedKeysURL, options: .atomic)
                } catch {
                    throw KithError.fileSystem(path: home.rotatedKeysURL.path, reason: error.localizedDescription)
                }
            }
            // Import into the bare store before the account opens (opening registers the own feed).
            let imported = try importIntoFreshStore(home: home, seed: seed, manifest: manifest, from: url, secret: secret, progress: progress)
            let account = try openRotationAware(home: home, seed: seed, clock: clock)
            let head: Int64
            do throws(StoreError) { head = Int64(try account.store.head(of: account.feedID)?.sequence ?? 0) } catch { throw KithError.store(error) }
            var marker = JSONObject()
            marker["backup_id"] = .string(manifest.backupID)
            marker["own_head"] = .integer(head)
            do {
                try Data(CanonicalJSON.serialize(marker) + [0x0A]).write(to: home.restoreMarkerURL, options: .atomic)
            } catch {
                throw KithError.fileSystem(path: home.restoreMarkerURL.path, reason: error.localizedDescription)
            }
            try account.writePublicKeys()
            try account.planReestablishmentBlocking(groups: groupMembers)
            return (account, RestoreReport(manifest: manifest, importedRows: imported, groupsAwaitingReadmission: groups, ownHead: head))
        } catch {
            if created, let entries = try? fileManager.contentsOfDirectory(atPath: home.directory.path) {
                for entry in entries { try? fileManager.removeItem(at: home.directory.appendingPathComponent(entry)) }
            }
            throw error
        }
    }

    static func importIntoFreshStore(
        home: AccountHome, seed: Seed, manifest: BackupManifest, from url: URL, secret: BackupSecret, progress: BackupProgress?
    ) throws(KithError) -> [String: Int64] {
        let identity = try identity(seed: seed, seeds: try readSealed(home.rotatedKeysURL, deviceSeed: seed))
        let store: FeedStore
        let schema: Int64
        do throws(StoreError) {
            store = try FeedStore(path: home.databaseURL.path, storageKey: identity.storageKey)
            schema = try store.backupSchemaVersion()
        } catch {
            throw .store(error)
        }
        guard manifest.schemaVersion <= schema else {
            throw .continuity(.inconsistent("the backup's store schema \(manifest.schemaVersion) is newer than this Kith's \(schema); update Kith"))
        }
        return try importRows(from: url, secret: secret, into: store, progress: progress)
    }

    static func importRows(from url: URL, secret: BackupSecret, into store: FeedStore, progress: BackupProgress?) throws(KithError) -> [String: Int64] {
        try withBackupReader(url, secret: secret) { (reader: inout BackupReader<FileHandleBackupInput>) throws(KithError) in
            var counts: [String: Int64] = [:]
            var batch: [BackupStoreRow] = []
            var rowDecoder = BackupRowDecoder()
            var done: UInt64 = 0
            let total = UInt64(reader.manifest.counts.values.reduce(0, +))
            do {
                while let record = try nextRecord(&reader) {
                    guard let row = try checkStoreRecord(record, with: &rowDecoder) else { continue }
                    counts[row.table, default: 0] += 1
                    batch.append(row)
                    if batch.count >= FeedStore.backupImportBatch {
                        do throws(StoreError) { try store.backupImport(batch) } catch { throw KithError.store(error) }
                        batch.removeAll(keepingCapacity: true)
                    }
                    done += 1
                    if done % 1000 == 0 { progress?(done, total) }
                }
                do throws(StoreError) { try store.backupImport(batch) } catch { throw KithError.store(error) }
                progress?(total, total)
            }
            return counts
        }
    }
}
