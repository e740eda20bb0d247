import Crypto
import KithIdentity

/// The private one-time prekeys this identity handed its contacts, one pool per contact, with
/// consume-once semantics.
///
/// Transaction-scoped like ``SessionStore``: the consumption of a prekey commits together with
/// the session it started and the message it opened. Methods throw ``RatchetError/storage(_:)``
/// when the storage fails.
public protocol PrekeyStore {
    /// Generates `count` fresh one-time prekeys for `peer`, keeps their private halves and
    /// returns the public batch to hand over. Ids continue after the last batch and never repeat.
    ///
    /// - Throws: ``RatchetError/prekeyPoolFull(limit:)`` when the pool would exceed
    ///   ``RatchetConstants/maxOneTimePrekeys`` (or the ids are exhausted).
    func generateOneTimePrekeys(count: Int, forPeer peer: FeedID) throws(RatchetError) -> OneTimePrekeyBatch

    /// Looks up a one-time prekey without consuming it (used while a prekey message is verified).
    func oneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey?

    /// Returns the private key and deletes it, so it can never be used again.
    ///
    /// - Throws: ``RatchetError/unknownOneTimePrekey(id:)`` when it does not exist or was used.
    func consumeOneTimePrekey(id: UInt32, forPeer peer: FeedID) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey

    /// The pool's fill level for `peer`.
    func status(forPeer peer: FeedID) throws(RatchetError) -> PrekeyPoolStatus
}
