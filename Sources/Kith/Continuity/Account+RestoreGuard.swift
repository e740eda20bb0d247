import Foundation
import KithCanonical
import KithStore

/// The restored-head guard: after a restore the own feed may have grown on the old device since the backup, so the
/// account refuses to append (which would fork the feed) until it has learned a head beyond the backup's from a
/// contact, or publishes a `key_rotation` (reason `device_migration`), which the guard lets through.
extension Account {
    /// The content type a rotation appends (allowed through the guard).
    static let keyRotationType = "key_rotation"

    /// Throws ``ContinuityError/restoredHeadUnknown(sequence:)`` while the marker stands and the own feed's head is
    /// still the backup's; removes the marker once the store holds a newer own entry (learned by sync).
    func checkRestoredHead() throws(KithError) {
        guard let home, let data = FileManager.default.contents(atPath: home.restoreMarkerURL.path) else { return }
        let recorded = (try? CanonicalJSON.parse(Array(data)))?.objectValue?["own_head"]?.integerValue ?? Int64.max
        let current: Int64
        do throws(StoreError) { current = Int64(try store.head(of: feedID)?.sequence ?? 0) } catch { throw .store(error) }
        if recorded != Int64.max, current > recorded {
            clearRestoredHead()
            return
        }
        throw .continuity(.restoredHeadUnknown(sequence: recorded == Int64.max ? -1 : recorded))
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
