extension Schema {
    /// Groups (docs/GROUPS.md, "Storage"). The spec's `mls_groups` / `mls_group_members` plus Kith's columns and tables.
    ///
    /// - `mls_groups.mls_state_blob` holds this member's serialized state sealed by ``ContentSealer`` in binary form
    ///   (`0x01 | nonce | ciphertext | tag`, context `mls_state:{group_id}`), `group_name` the name sealed (context `group_name:{group_id}`); `status` is
    ///   `active`, `removed`, `left` or `exploded` (the state blob is then empty); `committer` is the feed that commits;
    ///   `state_version` grows with every save, so a process may keep a restored state in memory while it matches.
    /// - `mls_own_key_packages`: KeyPackages this identity handed a contact, with their private keys sealed (context
    ///   `mls_key_package:{ref}`), deleted when a Welcome uses them.
    /// - `mls_peer_key_packages`: KeyPackages contacts handed this identity, used once each to add them.
    /// - `mls_outbox`: Welcomes written in a commit's transaction and not yet sent as direct messages (a crash between
    ///   the commit and the sends loses no Welcome).
    /// - `mls_processed`: every group message handled (content stored, held no longer, or refused with its reason):
    ///   no message is ever processed twice.
    static let groupTables = """
        ALTER TABLE mls_groups ADD COLUMN status TEXT NOT NULL DEFAULT 'active';
        ALTER TABLE mls_groups ADD COLUMN committer TEXT;
        ALTER TABLE mls_groups ADD COLUMN explode_at INTEGER;
        ALTER TABLE mls_groups ADD COLUMN updated_at INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE mls_groups ADD COLUMN state_version INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE mls_own_key_packages (
            ref TEXT PRIMARY KEY,
            recipient_feed_id TEXT NOT NULL,
            key_package BLOB NOT NULL,
            secrets_sealed TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX idx_own_kp_recipient ON mls_own_key_packages(recipient_feed_id);
        CREATE TABLE mls_peer_key_packages (
            ref TEXT PRIMARY KEY,
            peer_feed_id TEXT NOT NULL,
            key_package BLOB NOT NULL,
            received_at INTEGER NOT NULL
        );
        CREATE INDEX idx_peer_kp_peer ON mls_peer_key_packages(peer_feed_id, received_at);
        CREATE TABLE mls_processed (
            message_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL,
            outcome TEXT NOT NULL,
            processed_at INTEGER NOT NULL
        );
        CREATE INDEX idx_mls_processed_group ON mls_processed(group_id);
        CREATE INDEX idx_messages_group_inbox ON messages(audience, feed_id, sequence)
            WHERE content_json IS NULL AND audience LIKE 'group:%';
        CREATE TABLE mls_outbox (
            group_id TEXT NOT NULL,
            recipient_feed_id TEXT NOT NULL,
            mls_message BLOB NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY(group_id, recipient_feed_id)
        );
        """

    /// Group messages of an epoch this member has not reached (docs/GROUPS.md, "Processing"): their epoch is read
    /// once, from the MLS header in the clear, and the inbox skips them until the group's epoch reaches it, so a pass
    /// costs what arrived since the last one, not every message ever held (a member cannot make each import re-read
    /// a pile of far-future messages).
    ///
    /// Ratchet trees too large for a Welcome (docs/GROUPS.md, "Size"): the committer's outbox row names the encrypted
    /// blob (`tree_blob`, its content hash) and its key (`tree_key`, sealed, context `mls_group_tree:{group_id}`);
    /// `mls_group_trees` keeps what a committer sent this identity in `mls_group_tree` messages, the key sealed too.
    static let groupHeldTable = """
        CREATE TABLE mls_held (
            message_id TEXT PRIMARY KEY,
            group_id TEXT NOT NULL,
            epoch INTEGER NOT NULL
        );
        CREATE INDEX idx_mls_held_group ON mls_held(group_id, epoch);
        ALTER TABLE mls_outbox ADD COLUMN tree_blob TEXT;
        ALTER TABLE mls_outbox ADD COLUMN tree_key TEXT;
        CREATE TABLE mls_group_trees (
            group_id TEXT NOT NULL,
            author_feed_id TEXT NOT NULL,
            blob_hash TEXT NOT NULL,
            key_sealed TEXT NOT NULL,
            received_at INTEGER NOT NULL,
            PRIMARY KEY(group_id, author_feed_id)
        );
        """

    /// A member's message-key ratchets, stored apart from the rest of its state (docs/GROUPS.md, "Storage"): every
    /// application message sent or received advances them, so it rewrites this small row, not the whole state.
    ///
    /// `ratchets_blob` holds `GroupMembership.serializedRatchets()` sealed in binary form (context
    /// `mls_ratchets:{group_id}`); the group's `mls_state_blob` then holds `serializedWithoutRatchets()` (its secret
    /// trees emptied), and neither part restores without the other. `version` grows with every save of either part:
    /// it is the version a process compares with the state it keeps in memory. A store upgraded to this migration keeps
    /// its groups' whole states (no row here) until each group's next save writes both parts.
    static let groupRatchetsTable = """
        CREATE TABLE mls_group_ratchets (
            group_id TEXT PRIMARY KEY,
            ratchets_blob BLOB NOT NULL,
            version INTEGER NOT NULL
        );
        """
}
