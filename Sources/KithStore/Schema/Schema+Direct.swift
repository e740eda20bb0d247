extension Schema {
    /// Direct messages (docs/FEED-FORMAT.md, "Direct messages: storage"): the one-time prekeys this
    /// identity handed each contact (private halves sealed under the storage key), the batch state
    /// per contact, the contacts' one-time prekeys it holds (public), and direct messages that
    /// failed to decrypt for good (so they are not retried on every pass). Sessions live in the
    /// spec table `dr_sessions`, sealed.
    static let directTables = """
        CREATE TABLE one_time_prekeys (
            peer_feed_id TEXT NOT NULL,
            prekey_id INTEGER NOT NULL,
            private_key_sealed BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (peer_feed_id, prekey_id)
        );
        CREATE TABLE prekey_batches (
            peer_feed_id TEXT PRIMARY KEY,
            next_prekey_id INTEGER NOT NULL,
            last_batch_size INTEGER NOT NULL,
            issued_at INTEGER NOT NULL
        );
        CREATE TABLE peer_prekeys (
            peer_feed_id TEXT NOT NULL,
            prekey_id INTEGER NOT NULL,
            public_key BLOB NOT NULL,
            PRIMARY KEY (peer_feed_id, prekey_id)
        );
        CREATE TABLE direct_failures (
            message_id TEXT PRIMARY KEY,
            reason TEXT NOT NULL,
            failed_at INTEGER NOT NULL
        );
        """

    /// Direct messages not decrypted yet, so the pass after every import and sync does not scan
    /// the whole `messages` table. Partial: rows of other audiences, and decrypted ones, are not
    /// in it (ingest of other messages pays nothing for it).
    static let directInboxIndex = """
        CREATE INDEX idx_messages_direct_inbox ON messages(audience, feed_id, sequence)
            WHERE content_json IS NULL AND tombstoned = 0 AND audience LIKE 'direct:%';
        """
}
