/// Scheduling classes of spec 8.5, highest first. Within a class, feeds keep the order of the
/// peer's requests and each feed stays newest first.
public enum SyncPriority: Int, Comparable, Hashable, Sendable, CaseIterable {
    /// Messages of the remote peer's own feed.
    case peerOwnFeed = 0
    /// `key_rotation` and `group_event` (key material).
    case keyMaterial = 1
    /// `post` and `reaction`.
    case content = 2
    /// `tombstone` and `profile_update`.
    case lowUrgency = 3

    public static func < (lhs: SyncPriority, rhs: SyncPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}
