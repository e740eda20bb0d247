import Foundation
import KithCanonical
import KithContinuity
import KithIdentity
import KithStore

/// `Account.backup(to:…)`: one sealed, streamed backup file (docs/CONTINUITY.md).
extension Account {
    /// Writes a backup of this account to `url` (through a temporary file renamed at the end, mode 0600): the seed,
    /// the rotated key seeds, the public keys, the carried store tables and the group summaries, sealed under
    /// `secret`. Memory stays bounded whatever the number of messages.
    public func backup(
        to url: URL, secret: BackupSecret, options: BackupOptions = BackupOptions(), progress: BackupProgress? = nil
    ) async throws(KithError) -> BackupSummary {
        try await BlockingWork.run { () throws(KithError) in try self.backupBlocking(to: url, secret: secret, options: options, progress: progress) }
    }

    func backupBlocking(to url: URL, secret: BackupSecret, options: BackupOptions, progress: BackupProgress?) throws(KithError) -> BackupSummary {
        if let window = options.window, window < 1 { throw .input(.invalid("the backup window must be at least 1 message")) }
        let own = feedID.string
        let counts: [String: Int64]
        let schema: Int64
        let envelopeBytes: Int64
        let groups: [(groupID: String, name: String?, members: [String], committer: String?)]
        do throws(StoreError) {
            counts = try store.backupExportCounts(ownFeedID: own, window: options.window, includeBlobs: options.includeBlobs)
            schema = try store.backupSchemaVersion()
            envelopeBytes = try store.backupStoredEnvelopeBytes()
            groups = try store.backupGroupSummaries()
        } catch {
            throw .store(error)
        }
        let manifest = BackupManifest(
            backupID: "", feedID: own, createdAt: clock(), schemaVersion: schema,
            counts: counts.merging(["group_summary": Int64(groups.count)]) { $1 }, window: options.window.map(Int64.init),
            includesBlobs: options.includeBlobs)
        let total = UInt64(counts.values.reduce(0, +)) + UInt64(groups.count) + 3

        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600]),
              let handle = try? FileHandle(forWritingTo: temporary)
        else { throw .fileSystem(path: temporary.path, reason: "cannot create the backup file") }
        var succeeded = false
        defer {
            try? handle.close()
            if !succeeded { try? FileManager.default.removeItem(at: temporary) }
        }
        do throws(BackupError) {
            var writer = try BackupWriter(output: FileHandleBackupOutput(handle), secret: secret, manifest: manifest)
            try writer.append(BackupRecord(kind: .seed, body: deviceSeed.withUnsafeBytes { Array($0) }))
            try writer.append(BackupRecord(kind: .publicIdentity, body: CanonicalJSON.serialize(publicKeysJSON)))
            if let keySeeds {
                let sealed: [UInt8]
                do throws(IdentityError) { sealed = try keySeeds.sealed(deviceSeed: deviceSeed) } catch { throw .io("sealing the key seeds: \(error)") }
                try writer.append(BackupRecord(kind: .rotatedKeySeed, body: sealed))
            }
            for group in groups {
                var object = JSONObject()
                object["group_id"] = .string(group.groupID)
                object["name"] = group.name.map { .string($0) } ?? .null
                object["members"] = .array(group.members.map { .string($0) })
                if let committer = group.committer { object["committer"] = .string(committer) }
                try writer.append(BackupRecord(kind: .groupSummary, body: CanonicalJSON.serialize(object)))
            }
            var done: UInt64 = 3
            var failure: BackupError?
            var rowEncoder = BackupRowEncoder()
            do throws(StoreError) {
                try store.backupExportRows(ownFeedID: own, window: options.window, includeBlobs: options.includeBlobs) { row in
                    do throws(BackupError) {
                        for output in rowEncoder.encode(row) {
                            switch output {
                            case .tableHeader(let body): try writer.append(BackupRecord(kind: .storeTableHeader, body: body))
                            case .row(let body): try writer.append(BackupRecord(kind: .storeRow, body: body))
                            }
                        }
                    } catch {
                        failure = error
                        throw error
                    }
                    done += 1
                    if done % 1000 == 0 { progress?(done, total) }
                }
            } catch {
                if let failure { throw failure }
                throw .io("reading the store: \(error)")
            }
            try writer.finish()
            progress?(total, total)
            do {
                try handle.synchronize()
                try? FileManager.default.removeItem(at: url)
                try FileManager.default.moveItem(at: temporary, to: url)
            } catch {
                throw .io("cannot put the backup at \(url.path): \(error.localizedDescription)")
            }
            succeeded = true
            var stamped = manifest
            stamped.backupID = Hex.encode(writer.header.fileID)
            let personas = home == nil ? 0 : ((try? personaIndex().entries.count) ?? 0)
            return BackupSummary(manifest: stamped, fileBytes: writer.bytesWritten, recordCount: writer.recordCount,
                                 storedEnvelopeBytes: envelopeBytes, personasNotCarried: personas)
        } catch {
            throw .continuity(.backup(error))
        }
    }
}
