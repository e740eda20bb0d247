import KithIdentity

/// Where the ``SessionRecord`` with each contact is kept between operations.
///
/// An implementation is scoped to one transaction of its storage: everything written through it
/// during one ``DirectSessions`` operation commits together with the message it concerns, or not
/// at all (KithStore's `StoreRatchetState` lives inside one SQLite write transaction, sealing the
/// record at rest). Methods throw ``RatchetError/storage(_:)`` when the storage fails.
public protocol SessionStore {
    /// The stored record with `peer`, if any.
    func sessionRecord(with peer: FeedID) throws(RatchetError) -> SessionRecord?
    /// Stores (replaces) the record with `peer`.
    func saveSessionRecord(_ record: SessionRecord, with peer: FeedID) throws(RatchetError)
    /// Deletes the record with `peer` (nothing happens when there is none).
    func deleteSessionRecord(with peer: FeedID) throws(RatchetError)
}
