extension Schema {
    /// Sync bookkeeping kept between sessions (docs/sync.md, section 10b): one row per peer,
    /// keyed by its Noise static key (base64url `dh_key`). What makes resumption exact needs no
    /// table of its own: a receiver declares its `pending_entries` as held ranges.
    static let syncTables = """
        CREATE TABLE sync_peer_state (
            peer_key TEXT PRIMARY KEY,
            last_attempt_at INTEGER NOT NULL,
            last_completed_at INTEGER,
            sessions INTEGER NOT NULL DEFAULT 0,
            interrupted_sessions INTEGER NOT NULL DEFAULT 0,
            messages_received INTEGER NOT NULL DEFAULT 0,
            messages_sent INTEGER NOT NULL DEFAULT 0,
            blobs_received INTEGER NOT NULL DEFAULT 0
        );
        """
}
