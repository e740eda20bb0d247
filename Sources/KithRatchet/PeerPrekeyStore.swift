import KithIdentity

/// The public one-time prekeys contacts handed this identity (in person or in a `prekey_batch`
/// message): an initiator takes one per new session and never uses it again.
///
/// Transaction-scoped like ``SessionStore``: the removal of a used prekey commits together with
/// the session it started. Methods throw ``RatchetError/storage(_:)`` when the storage fails.
public protocol PeerPrekeyStore {
    /// The contact's unused one-time prekey with the lowest id, without removing it.
    func nextPeerPrekey(forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyPublic?

    /// Removes a contact's one-time prekey once a session used it.
    func removePeerPrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError)

    /// Adds a batch the contact handed over; ids already held are ignored.
    func addPeerPrekeys(_ batch: OneTimePrekeyBatch, forPeer peer: FeedID) throws(RatchetError)

    /// How many of the contact's unused one-time prekeys are held.
    func peerPrekeyCount(forPeer peer: FeedID) throws(RatchetError) -> Int
}
