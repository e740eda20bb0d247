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

    public var description: String {
        switch self {
        case .backup(let error): error.description
        case .homeNotEmpty(let path): "\(path) is not empty; restore into a new, empty home (--home DIR)"
        case .otherIdentity(let expected, let found):
            "this backup belongs to \(found), not \(expected); use that identity's backup"
        case .inconsistent(let reason): "backup refused: \(reason)"
        case .restoredHeadUnknown(let sequence):
            "restored from a backup whose own feed ended at \(sequence): sync with a contact first (so this device learns "
                + "what the old one posted since), or run `kith rotate-keys --reason device_migration`; posting now could fork the feed"
        case .recoveredHeadUnknown:
            "rebuilt through guardians without a backup: this device knows nothing of its own feed yet; add a contact's card "
                + "and sync with them first, then run `kith rotate-keys --reason device_migration`; posting or rotating now would fork the feed"
        }
    }
}
