import KithCanonical
import KithContinuity

/// Why a backup or restore was refused, or why a restored account may not post yet.
public enum ContinuityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The container refused the file (wrong key, damaged, tampered, malformed).
    case backup(BackupError)
    /// `restore` needs an empty (or absent) home directory.
    case homeNotEmpty(path: String)
    /// The backup belongs to another identity than the one expected.
    case otherIdentity(expected: String, found: String)
    /// The backup's records do not match its manifest (seed of another feed, missing seed, newer schema).
    case inconsistent(String)
    /// The account was restored from a backup and has not yet learned its own feed's head.
    case restoredHeadUnknown(sequence: Int64)
    /// The identity was rebuilt through guardians without a backup and has not yet learned its own feed from a contact.
    case recoveredHeadUnknown
    /// A device move failed (wrong code, a broken or hostile peer, a timeout); nothing changed on either device.
    case move(MoveError)
    /// This account is handing its identity to a new device: appends wait until the move fails (or it stops).
    case moveInProgress
    /// This home handed its identity to another device (`kith move send`) and no longer holds its keys.
    case movedAway(feedID: String, movedAt: Int64, confirmation: String)
    /// A move was asked of a home that holds personas, which a move does not carry, without saying they may end.
    case personasNotCarried(count: Int)

    public var description: String {
        switch self {
        case .backup(let error): error.description
        case .homeNotEmpty(let path): "\(path) is not empty; restore into a new, empty home (--home DIR)"
        case .otherIdentity(let expected, let found):
            "this backup belongs to \(found), not \(expected); use that identity's backup"
        case .inconsistent(let reason): "backup refused: \(reason)"
        case .move(let error): error.description
        case .moveInProgress:
            "this device is handing its identity to a new device; nothing can be posted until the move fails or ends"
        case .movedAway(let feedID, let movedAt, let confirmation):
            "this device handed its identity \(feedID) to a new device on \(Self.day(movedAt)) "
                + "(confirmation \(confirmation)) and no longer holds its keys; use the new device"
        case .personasNotCarried(let count):
            "this home holds \(count) persona conversation(s) (kith personas); a move does not carry personas, so they would "
                + "end on this device (their members see them fall silent): leave or explode them first, or move anyway with "
                + "`kith move send CODE --end-personas`"
        case .restoredHeadUnknown(let sequence):
            "restored from a backup whose own feed ended at \(sequence): sync with a contact first (so this device learns "
                + "what the old one posted since), or run `kith rotate-keys --reason device_migration`; posting now could fork the feed"
        case .recoveredHeadUnknown:
            "rebuilt through guardians without a backup: this device knows nothing of its own feed yet; add a contact's card "
                + "and sync with them first, then run `kith rotate-keys --reason device_migration`; posting or rotating now would fork the feed"
        }
    }

    /// `YYYY-MM-DD` (UTC) of a time in seconds since 1970.
    static func day(_ seconds: Int64) -> String {
        let date = CivilDate.date(days: seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)-\(two(date.month))-\(two(date.day))"
    }
}
