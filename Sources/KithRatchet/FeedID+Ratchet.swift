import KithIdentity

/// The ratchet keys its sessions and prekey pools by KithIdentity's ``FeedID`` (the one feed id
/// type of every module); this maps a malformed one to the ratchet's own error.
extension FeedID {
    /// Parses a feed id, or throws ``RatchetError/invalidFeedID(_:)``.
    static func parsed(_ text: String) throws(RatchetError) -> FeedID {
        do { return try FeedID(text) } catch { throw .invalidFeedID(text) }
    }

    /// Feed ids order by their ASCII text (initiator and responder roles, simultaneous initiation).
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8))
    }
}
