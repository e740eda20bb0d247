import KithIdentity

/// The direct-message session layer: picks or starts the session with a contact for sending
/// (taking one of the contact's one-time prekeys for a new session) and opens received messages
/// (session lookup, prekey messages, consuming the one-time prekey once, saving the advanced
/// record). It works only through ``SessionStore``, ``PrekeyStore`` and ``PeerPrekeyStore``.
///
/// Give it stores scoped to the transaction that also stores the message: the prekey consumed,
/// the session advanced and the message then commit together or not at all, so a message is
/// opened exactly once and no message key is used twice. On a throw nothing was written through
/// the stores, except what the storage itself rolls back.
///
/// ```swift
/// let sessions = DirectSessions(local: myKeys)
/// let wire = try sessions.encrypt(plaintext, to: bob, signedPrekey: bobDHKey, context: context,
///                                 sessions: state, peerPrekeys: state)
/// let plaintext = try sessions.open(wire, context: context, from: alice, sessions: state, prekeys: state, now: now)
/// ```
public struct DirectSessions: Sendable {
    /// This identity's current keys.
    public let local: LocalIdentityKeys
    /// The retired generations' keys after key rotations, newest first: messages a contact wrote
    /// before it saw the rotations still target them (an X3DH to their dh and pq keys, or a
    /// ratchet step encapsulated to their pq key).
    public let retired: [LocalIdentityKeys]

    /// The previous generation's keys after a key rotation (the first of ``retired``).
    public var previous: LocalIdentityKeys? { retired.first }

    /// Creates the session layer for one identity.
    ///
    /// - Throws: ``RatchetError/malformed(_:)`` when `previous` belongs to another feed.
    public init(local: LocalIdentityKeys, previous: LocalIdentityKeys? = nil) throws(RatchetError) {
        try self.init(local: local, retired: previous.map { [$0] } ?? [])
    }

    /// Creates the session layer for one identity with its retired generations (newest first).
    ///
    /// - Throws: ``RatchetError/malformed(_:)`` when a retired generation belongs to another feed.
    public init(local: LocalIdentityKeys, retired: [LocalIdentityKeys]) throws(RatchetError) {
        for keys in retired where keys.feedID != local.feedID {
            throw .malformed("previous keys of feed \(keys.feedID) given for feed \(local.feedID)")
        }
        self.local = local
        self.retired = retired
    }

    // MARK: Sending

    /// Encrypts `plaintext` for `peer` as the direct message described by `context`.
    ///
    /// Uses the stored session with the contact (retargeted to their current ML-KEM key); without
    /// one it starts a session from `signedPrekey` (the contact's dh_key) and their next one-time
    /// prekey, when one is held, and removes that prekey. The advanced record is saved.
    ///
    /// - Throws: ``RatchetError/malformed(_:)`` when `context` is not a message from this
    ///   identity to `peer`; any error of the session or the stores.
    public func encrypt(
        _ plaintext: [UInt8], to peer: PeerIdentity, signedPrekey: [UInt8], context: DirectMessageContext,
        sessions: some SessionStore, peerPrekeys: some PeerPrekeyStore,
        entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> [UInt8] {
        guard context.feedID == local.feedID, context.audience == "direct:" + peer.feedID else {
            throw .malformed("context of feed \(context.feedID) to '\(context.audience)' is not a message from \(local.feedID) to \(peer.feedID)")
        }
        let record: SessionRecord
        var usedPrekey: UInt32?
        if let stored = try sessions.sessionRecord(with: peer.feed) {
            record = stored.updatingPeerPQKey(peer.pqKey)
        } else {
            let oneTime = try peerPrekeys.nextPeerPrekey(forPeer: peer.feed)
            let bundle = try PrekeyBundle(peer: peer, signedPrekey: signedPrekey, oneTimePrekey: oneTime)
            record = SessionRecord(current: try RatchetSession.initiate(local: local, bundle: bundle, entropy: entropy))
            usedPrekey = oneTime?.id
        }
        let (wire, next) = try record.encrypt(plaintext, context: context, entropy: entropy)
        try sessions.saveSessionRecord(next, with: peer.feed)
        if let usedPrekey { try peerPrekeys.removePeerPrekey(id: usedPrekey, forPeer: peer.feed) }
        return wire
    }

    // MARK: Receiving

    /// Opens one direct message `peer` sent to this identity.
    ///
    /// Tries the current keys, then the retired generations' (newest first). A prekey message may start a new
    /// session (see ``SessionRecord/receive(_:record:context:local:peer:prekeys:now:entropy:)``);
    /// its one-time prekey is consumed once the message authenticated. The advanced record is saved.
    ///
    /// - Throws: ``RatchetError/malformed(_:)`` when `context` is not a message from `peer` to this
    ///   identity, or there is no session and the message is not a prekey message;
    ///   ``RatchetError/unknownOneTimePrekey(id:)`` for a prekey never issued or already used;
    ///   ``RatchetError/duplicateOrExpiredMessage`` for a replay; any error of the stores.
    public func open(
        _ wire: [UInt8], context: DirectMessageContext, from peer: PeerIdentity,
        sessions: some SessionStore, prekeys: some PrekeyStore, now: UInt64,
        entropy: some RatchetEntropySource = SystemEntropySource()
    ) throws(RatchetError) -> [UInt8] {
        guard context.feedID == peer.feedID, context.audience == "direct:" + local.feedID else {
            throw .malformed("message of feed \(context.feedID) to '\(context.audience)' is not from \(peer.feedID) to \(local.feedID)")
        }
        let record = try sessions.sessionRecord(with: peer.feed).map { $0.updatingPeerPQKey(peer.pqKey) }
        var firstError: RatchetError?
        for keys in [local] + retired {
            do throws(RatchetError) {
                let received = try SessionRecord.receive(
                    wire, record: record, context: context, local: keys, peer: peer, prekeys: prekeys, now: now, entropy: entropy
                )
                try sessions.saveSessionRecord(received.record, with: peer.feed)
                return received.plaintext
            } catch {
                if Self.isStorage(error) { throw error }
                if firstError == nil { firstError = error }
            }
        }
        throw firstError ?? .authenticationFailed
    }

    /// Adds a one-time prekey batch `peer` sent (a `prekey_batch` message's bytes) to the held pool.
    ///
    /// - Returns: the batch.
    /// - Throws: the batch's decoding errors, or the store's.
    @discardableResult
    public static func acceptPrekeyBatch(
        _ encoded: [UInt8], from peer: FeedID, peerPrekeys: some PeerPrekeyStore
    ) throws(RatchetError) -> OneTimePrekeyBatch {
        let batch = try OneTimePrekeyBatch.decode(encoded)
        try peerPrekeys.addPeerPrekeys(batch, forPeer: peer)
        return batch
    }

    private static func isStorage(_ error: RatchetError) -> Bool {
        if case .storage = error { return true }
        return false
    }
}
