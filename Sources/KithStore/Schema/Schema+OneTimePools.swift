extension Schema {
    /// One-time key pools of the inner circle (docs/TDF.md, "Storage"), migration `v11-one-time-pools`.
    ///
    /// - `otk_pools`: one row per peer: the exchange both pools came from, `pending` (this side
    ///   sent its ack and waits for the commit: it may receive, not send) or `active`, both
    ///   capacities, and whether the low-pool warning was already raised.
    /// - `otk_own_keys`: the private halves this side generated for the peer, each sealed by
    ///   ``ContentSealer`` (binary form, context `otk_private:{peer}:{key id hex}`), never in the
    ///   clear; a row is deleted in the transaction that decrypts the message sent to it.
    /// - `otk_peer_keys`: the peer's public halves in the order received, with a `used` flag set in
    ///   the transaction that stores the outgoing message encrypted to the key.
    /// - `otk_retired_keys`: the private halves a renewal replaced and no message used yet, kept
    ///   (sealed as before) so a message sent under the old pool and delivered after the renewal can
    ///   still be read once; only the last replaced pool's keys are kept (bounded by a pool size),
    ///   and a revocation deletes them.
    /// - `otk_intents`: what the next sync session with the peer does in its side phase: an
    ///   exchange armed by `kith circle add` (with the pool size), a revocation to announce, or
    ///   (migration `v14-otk-confirm-intent`) an answered exchange whose commit may have been lost.
    static let oneTimePoolTables = """
        CREATE TABLE otk_pools (
            pool_id INTEGER PRIMARY KEY,
            peer_feed_id TEXT NOT NULL UNIQUE,
            exchange_id BLOB NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('pending', 'active')),
            own_capacity INTEGER NOT NULL,
            peer_capacity INTEGER NOT NULL,
            low_reported INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE otk_own_keys (
            pool_id INTEGER NOT NULL REFERENCES otk_pools(pool_id) ON DELETE CASCADE,
            key_id BLOB NOT NULL,
            private_key_sealed BLOB NOT NULL,
            PRIMARY KEY(pool_id, key_id)
        ) WITHOUT ROWID;
        CREATE TABLE otk_peer_keys (
            pool_id INTEGER NOT NULL REFERENCES otk_pools(pool_id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            public_key BLOB NOT NULL,
            used INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY(pool_id, position)
        ) WITHOUT ROWID;
        CREATE INDEX idx_otk_peer_keys_unused ON otk_peer_keys(pool_id, used, position);
        CREATE INDEX idx_messages_otk_inbox ON messages(audience, feed_id, sequence)
            WHERE content_json IS NULL AND tombstoned = 0 AND audience LIKE 'otk:%';
        CREATE TABLE otk_retired_keys (
            peer_feed_id TEXT NOT NULL,
            key_id BLOB NOT NULL,
            private_key_sealed BLOB NOT NULL,
            retired_at INTEGER NOT NULL,
            PRIMARY KEY(peer_feed_id, key_id)
        ) WITHOUT ROWID;
        CREATE TABLE otk_intents (
            peer_feed_id TEXT PRIMARY KEY,
            intent TEXT NOT NULL CHECK (intent IN ('exchange', 'revoke')),
            pool_size INTEGER NOT NULL DEFAULT 0,
            recorded_at INTEGER NOT NULL
        );
        """

    /// Migration `v14-otk-confirm-intent`: `otk_intents` also holds `confirm` (an answered exchange
    /// whose commit may have been lost). SQLite cannot change a CHECK: the table is rebuilt.
    static let oneTimeConfirmIntent = """
        CREATE TABLE otk_intents_v14 (
            peer_feed_id TEXT PRIMARY KEY,
            intent TEXT NOT NULL CHECK (intent IN ('exchange', 'revoke', 'confirm')),
            pool_size INTEGER NOT NULL DEFAULT 0,
            recorded_at INTEGER NOT NULL
        );
        INSERT INTO otk_intents_v14 SELECT peer_feed_id, intent, pool_size, recorded_at FROM otk_intents;
        DROP TABLE otk_intents;
        ALTER TABLE otk_intents_v14 RENAME TO otk_intents;
        """
}
