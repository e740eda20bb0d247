import Foundation
import KithCanonical
import KithStore

/// The restored-head guard: after a restore the own feed may have grown on the old device since the backup, so the
/// account refuses to append (which would fork the feed) until it has learned a head beyond the backup's from a
/// contact, or publishes a `key_rotation` (reason `device_migration`), which the guard lets through.
extension Account {
    /// The content type a rotation appends (allowed through the guard).
    static let keyRotationType = "key_rotation"

    /// The marker member set when a home was rebuilt through guardians without a backup (own head 0).
    static let withoutBackupMarkerKey = "without_backup"

    /// Throws ``ContinuityError/restoredHeadUnknown(sequence:)`` while the marker stands and the own feed's head is
    /// still the backup's (a `key_rotation` passes: it is the device migration), and
    /// ``ContinuityError/recoveredHeadUnknown`` for any type, a rotation included, when the home was rebuilt through
    /// guardians without a backup (a rotation at sequence 1 would certainly fork the feed). Removes the marker once
    /// the store holds a newer own entry (learned by sync).
    func checkRestoredHead(appending type: String) throws(KithError) {
        guard let home, let data = FileManager.default.contents(atPath: home.restoreMarkerURL.path) else { return }
        let marker = (try? CanonicalJSON.parse(Array(data)))?.objectValue
        let withoutBackup = marker?[Self.withoutBackupMarkerKey]?.boolValue == true
        if type == Self.keyRotationType && !withoutBackup { return }
        let recorded = marker?["own_head"]?.integerValue ?? Int64.max
        let current: Int64
        do throws(StoreError) { current = Int64(try store.head(of: feedID)?.sequence ?? 0) } catch { throw .store(error) }
        if recorded != Int64.max, current > recorded {
            clearRestoredHead()
            return
        }
        if withoutBackup { throw .continuity(.recoveredHeadUnknown) }
        throw .continuity(.restoredHeadUnknown(sequence: recorded == Int64.max ? -1 : recorded))
    }

    /// The marker member asking for the `device_migration` rotation once the own feed is known.
    static let rotateWhenKnownMarkerKey = "rotate_when_known"

    /// Writes the marker for a home rebuilt through guardians without a backup: nothing of the own feed is known.
    /// With `rotateWhenKnown`, the first sync that brings the feed back publishes the move
    /// (`completeRecoveredMoveBlocking`).
    func markRecoveredWithoutBackup(rotateWhenKnown: Bool) throws(KithError) {
        guard let home else { return }
        var marker = JSONObject()
        marker["own_head"] = .integer(0)
        marker[Self.withoutBackupMarkerKey] = .bool(true)
        marker[Self.rotateWhenKnownMarkerKey] = .bool(rotateWhenKnown)
        do {
            try Data(CanonicalJSON.serialize(marker) + [0x0A]).write(to: home.restoreMarkerURL, options: .atomic)
        } catch {
            throw .fileSystem(path: home.restoreMarkerURL.path, reason: error.localizedDescription)
        }
    }

    /// Publishes the `device_migration` rotation of a home rebuilt without a backup (with `rotate_when_known`) once its
    /// store holds an own entry; true when it did. The rotation's append lifts the guard and removes the marker.
    func completeRecoveredMoveBlocking() throws(KithError) -> Bool {
        guard let home, let data = FileManager.default.contents(atPath: home.restoreMarkerURL.path),
              let marker = (try? CanonicalJSON.parse(Array(data)))?.objectValue,
              marker[Self.withoutBackupMarkerKey]?.boolValue == true, marker[Self.rotateWhenKnownMarkerKey]?.boolValue == true else {
            return false
        }
        let head: UInt32
        do throws(StoreError) { head = try store.head(of: feedID)?.sequence ?? 0 } catch { throw .store(error) }
        guard head > 0 else { return false }
        try rotateKeysBlocking(reason: .deviceMigration)
        return true
    }

    /// Removes the marker (after a rotation or once the head is learned).
    func clearRestoredHead() {
        guard let home else { return }
        try? FileManager.default.removeItem(at: home.restoreMarkerURL)
    }

    /// Whether this account still waits to learn its head after a restore.
    public var isAwaitingHeadAfterRestore: Bool {
        guard let home else { return false }
        return FileManager.default.fileExists(atPath: home.restoreMarkerURL.path)
    }
}
