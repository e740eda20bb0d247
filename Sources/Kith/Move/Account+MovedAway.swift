import Foundation
import KithCanonical

/// The old device after a move (docs/CONTINUITY.md, section 7): once the new device acknowledged, the old home
/// keeps only `public.json` and `moved.json`; the vault, the rotated key seeds and the database are removed, and
/// every later open (or `create` in the same home) is refused with `ContinuityError.movedAway`.
extension Account {
    /// Throws `ContinuityError.movedAway` when `home` handed its identity to another device.
    static func refuseIfMovedAway(_ home: AccountHome) throws(KithError) {
        guard let data = FileManager.default.contents(atPath: home.movedMarkerURL.path) else { return }
        let object = (try? CanonicalJSON.parse(Array(data.prefix(4096))))?.objectValue
        throw .continuity(.movedAway(
            feedID: object?["feed_id"]?.stringValue ?? "(unknown)", movedAt: object?["moved_at"]?.integerValue ?? 0,
            confirmation: object?["confirmation"]?.stringValue ?? "?"))
    }

    /// Writes the marker first, then removes every secret of the home and the database. Called only after the
    /// new device's `done`.
    func retireAfterMove(home: AccountHome, confirmation: String, newHead: UInt64) throws(KithError) {
        var marker = JSONObject()
        marker["feed_id"] = .string(feedID.string)
        marker["moved_at"] = .integer(clock())
        marker["confirmation"] = .string(confirmation)
        marker["new_device_head"] = .integer(Int64(clamping: newHead))
        do {
            try Data(CanonicalJSON.serialize(.object(marker)) + [0x0A]).write(to: home.movedMarkerURL, options: .atomic)
        } catch {
            throw .fileSystem(path: home.movedMarkerURL.path, reason: error.localizedDescription)
        }
        let database = home.databaseURL.path
        let secrets = [home.vaultURL.path, home.rotatedKeysURL.path, home.pendingRotatedKeysURL.path, home.restoreMarkerURL.path,
                       database, database + "-wal", database + "-shm",
                       // Personas are sealed under the device seed and are not carried (as in a backup).
                       home.personaIndexURL.path, home.personasDirectory.path]
        for path in secrets where FileManager.default.fileExists(atPath: path) {
            do { try FileManager.default.removeItem(atPath: path) } catch {
                throw .fileSystem(path: path, reason: "could not remove it after the move: \(error.localizedDescription); delete it by hand")
            }
        }
    }
}
