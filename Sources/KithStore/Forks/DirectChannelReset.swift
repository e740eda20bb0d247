import GRDB

/// Forgets the direct channel with a contact, for a fork switch that drops direct or one-time messages to this device
/// (docs/CONTINUITY.md section 3, "Switching branches"): those messages came from whoever wrote the dropped branch
/// (a stolen phone, a device the owner abandoned), so nothing they set up is trusted any more.
///
/// Removed: the Double Ratchet session, the prekeys this identity issued to the contact and the contact's prekeys it
/// holds, the inner-circle pools and a planned pool exchange, the KeyPackages exchanged both ways (and when one was last
/// offered), and the push tokens the contact handed over. The contact itself, its keys (as the switch set them), its
/// feed and what was read stay. The next message either way starts a new session from fresh prekeys, as after a
/// restore (docs/CONTINUITY.md section 8).
enum DirectChannelReset {
    /// Runs inside the switch's transaction.
    static func reset(peer: String, in db: Database, sealer: ContentSealer) throws {
        try forgetSessionsAndKeys(of: peer, in: db)
        try OneTimePoolAccess(db: db, sealer: sealer, now: FeedStore.nowMillis()).forget(peer: peer)
    }

    /// What both a contact's removal and a reset forget: the Double Ratchet session, the prekeys issued to `peer` and
    /// `peer`'s prekeys held here, the push tokens `peer` handed over, and the KeyPackages exchanged both ways.
    static func forgetSessionsAndKeys(of peer: String, in db: Database) throws {
        for table in ["dr_sessions", "one_time_prekeys", "prekey_batches", "peer_prekeys", "push_tokens_held"] {
            try db.execute(sql: "DELETE FROM \(table) WHERE peer_feed_id = ?", arguments: [peer])
        }
        try GroupStoreAccess.withdrawKeyPackages(of: peer, in: db)
    }
}
