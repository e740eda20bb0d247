import Foundation
import GRDB

/// Direct-message state inside one store transaction: the ratchet's stores (sessions, own and
/// contacts' one-time prekeys, see ``StoreRatchetState``) and the contacts' keys.
///
/// Handed to the closure of ``FeedStore/openDirectMessages(to:_:)`` and
/// ``FeedStore/withDirectState(_:)``; valid only during that call. Everything written through it
/// commits together with the message it concerns, or not at all.
public struct DirectSessionAccess {
    let db: Database
    let sealer: ContentSealer
    let now: Int64
    /// What runs once the transaction commits (group caches kept through ``groups``).
    let commitActions: CommitActions

    /// KithRatchet's `SessionStore`, `PrekeyStore` and `PeerPrekeyStore` on this transaction.
    public var ratchet: StoreRatchetState { StoreRatchetState(db: db, sealer: sealer, now: now) }

    /// A contact's current public keys (base64url), nil when `peer` is not a contact.
    /// The identity key (base64url) `peer` signed with at `sequence`: the key of its newest
    /// verified rotation at or before that sequence, else the feed's original key. A direct
    /// message written before a rotation was agreed with the keys of its time, even when the
    /// rotation arrives in the same import.
    public func identityKey(of peer: String, at sequence: UInt32) throws -> String? {
        if let rotated = try String.fetchOne(
            db,
            cached: "SELECT identity_key_pub FROM feed_keys WHERE feed_id = ? AND from_sequence <= ? AND verified = 1 ORDER BY from_sequence DESC LIMIT 1",
            arguments: [peer, sequence]
        ) {
            return rotated
        }
        return try String.fetchOne(db, cached: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [peer])
    }

    public func contactKeys(peer: String) throws -> (identityKey: String, dhKey: String, pqKey: String)? {
        guard let row = try Row.fetchOne(
            db, cached: "SELECT identity_key_pub, dh_key_pub, pq_key_pub FROM contacts WHERE feed_id = ?", arguments: [peer]
        ) else { return nil }
        return (row["identity_key_pub"], row["dh_key_pub"], row["pq_key_pub"])
    }
}
