import Foundation
import GRDB

/// Invite state inside a group-state transaction (docs/INVITES.md, "Storage").
extension GroupStoreAccess {
    /// Decrypted direct `invite_join_request` messages to `local` not yet processed: (message id, author, plaintext).
    public func joinRequests(to local: String) throws(StoreError) -> [(messageID: String, author: String, plaintext: [UInt8])] {
        try StoreError.catching {
            try directMessages(to: local, type: "invite_join_request")
        }
    }

    /// Decrypted direct `invite_join_error` messages to `local` not yet processed.
    public func joinErrors(to local: String) throws(StoreError) -> [(messageID: String, author: String, plaintext: [UInt8])] {
        try StoreError.catching {
            try directMessages(to: local, type: "invite_join_error")
        }
    }

    private func directMessages(to local: String, type: String) throws -> [(messageID: String, author: String, plaintext: [UInt8])] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT message_id, feed_id, content_json FROM messages
                WHERE audience = ? AND type = ? AND content_json IS NOT NULL
                  AND message_id NOT IN (SELECT message_id FROM mls_processed)
                ORDER BY received_at, feed_id, sequence
                """,
            arguments: ["direct:" + local, type]
        ).compactMap { row in
            let id: String = row["message_id"]
            guard let plain = try? sealer.open(row["content_json"], context: id) else { return nil }
            return (id, row["feed_id"], plain)
        }
    }

    /// True when the message was processed (any outcome).
    public func isProcessed(_ messageID: String) throws(StoreError) -> Bool {
        try StoreError.catching {
            try Int.fetchOne(db, sql: "SELECT 1 FROM mls_processed WHERE message_id = ?", arguments: [messageID]) != nil
        }
    }

    /// True when the single-use invite was consumed.
    public func isInviteConsumed(_ inviteID: String) throws(StoreError) -> Bool {
        try StoreError.catching {
            try Int.fetchOne(db, sql: "SELECT 1 FROM invites_consumed WHERE invite_id = ?", arguments: [inviteID]) != nil
        }
    }

    /// The feed the single-use invite admitted, if it was consumed.
    public func inviteConsumer(_ inviteID: String) throws(StoreError) -> String? {
        try StoreError.catching {
            try String.fetchOne(db, sql: "SELECT requester_feed_id FROM invites_consumed WHERE invite_id = ?", arguments: [inviteID])
        }
    }

    /// Consumes a single-use invite (in the transaction that adds `requester`).
    public func consumeInvite(_ inviteID: String, group groupID: String, requester: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                sql: "INSERT INTO invites_consumed(invite_id, group_id, requester_feed_id, consumed_at) VALUES (?, ?, ?, ?)",
                arguments: [inviteID, groupID, requester, now]
            )
        }
    }

    /// How many single-use invites were consumed (tests and `kith invite` reports).
    public func consumedInviteCount() throws(StoreError) -> Int {
        try StoreError.catching {
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invites_consumed") ?? 0
        }
    }

    /// Records a join request sent to `creator` for `tag` (replacing an earlier one for the same tag).
    public func recordJoinRequest(creator: String, tag: String, inviteID: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                sql: "INSERT OR REPLACE INTO invite_requests_sent(creator_feed_id, tag, invite_id, status, sent_at) VALUES (?, ?, ?, 'pending', ?)",
                arguments: [creator, tag, inviteID, now]
            )
        }
    }

    /// The status of the request sent to `creator` for `tag`, if any.
    public func joinRequestStatus(creator: String, tag: String) throws(StoreError) -> String? {
        try StoreError.catching {
            try String.fetchOne(
                db, sql: "SELECT status FROM invite_requests_sent WHERE creator_feed_id = ? AND tag = ?", arguments: [creator, tag])
        }
    }

    /// The creators of every pending request.
    public func pendingJoinRequestCreators() throws(StoreError) -> Set<String> {
        try StoreError.catching {
            Set(try String.fetchAll(db, sql: "SELECT DISTINCT creator_feed_id FROM invite_requests_sent WHERE status = 'pending'"))
        }
    }

    /// Marks the pending request to `creator` for `tag` `joined` or `refused`; false when there is none pending.
    @discardableResult
    public func settleJoinRequest(creator: String, tag: String, status: String) throws(StoreError) -> Bool {
        try StoreError.catching {
            try db.execute(
                sql: "UPDATE invite_requests_sent SET status = ? WHERE creator_feed_id = ? AND tag = ? AND status = 'pending'",
                arguments: [status, creator, tag]
            )
            return db.changesCount > 0
        }
    }

    /// The most own committed cards kept (``saveInviteCard(_:commitment:)`` prunes the oldest beyond it). Every
    /// compact card drawn as a QR code adds one, so the bound is high enough that drawing cards does not evict the card
    /// an outstanding invite for strangers commits to (invites reuse one card for days); about 1.5 KB each.
    public static let maxInviteCards = 256

    /// Keeps an own full card that a compact card commits to (an invite's, or one drawn as a QR code for the card phase
    /// of a first sync link), pruning the oldest beyond ``maxInviteCards``.
    public func saveInviteCard(_ card: [UInt8], commitment: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                sql: "INSERT OR IGNORE INTO invite_cards(commitment, card, created_at) VALUES (?, ?, ?)",
                arguments: [commitment, Data(card), now]
            )
            try db.execute(
                sql: """
                    DELETE FROM invite_cards WHERE commitment NOT IN
                    (SELECT commitment FROM invite_cards ORDER BY created_at DESC, rowid DESC LIMIT ?)
                    """,
                arguments: [Self.maxInviteCards]
            )
        }
    }

    /// The own card kept under `commitment`, if any.
    public func inviteCard(commitment: String) throws(StoreError) -> [UInt8]? {
        try StoreError.catching {
            try Data.fetchOne(db, sql: "SELECT card FROM invite_cards WHERE commitment = ?", arguments: [commitment]).map { Array($0) }
        }
    }

    /// The newest own card kept for invites, if any.
    public func latestInviteCard() throws(StoreError) -> [UInt8]? {
        try StoreError.catching {
            try Data.fetchOne(db, sql: "SELECT card FROM invite_cards ORDER BY created_at DESC, rowid DESC LIMIT 1").map { Array($0) }
        }
    }
}
