import GRDB

/// The SQLite schema as named migrations. Shipped migrations are never edited; changes are new ones.
///
/// Migration `v1-spec` creates the tables and indexes of spec section 9.1 exactly. Migration
/// `v1-kith` adds what Kith needs beyond the spec: the feeds it follows and their keys, self stubs
/// and pruned positions, pending (not yet linked) entries, envelopes of later versions, and fork
/// evidence.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-spec") { db in
            try db.execute(sql: specTables)
        }
        migrator.registerMigration("v1-kith") { db in
            try db.execute(sql: kithTables)
        }
        migrator.registerMigration("v2-contacts") { db in
            try db.execute(sql: contactsTables)
        }
        migrator.registerMigration("v3-direct") { db in
            try db.execute(sql: directTables)
        }
        migrator.registerMigration("v3-sync") { db in
            try db.execute(sql: syncTables)
        }
        migrator.registerMigration("v4-direct-inbox") { db in
            try db.execute(sql: directInboxIndex)
        }
        migrator.registerMigration("v5-withheld") { db in
            try db.execute(sql: withheldTables)
        }
        migrator.registerMigration("v6-foreign-bounds") { db in
            try db.execute(sql: foreignBoundsIndexes)
        }
        migrator.registerMigration("v7-groups") { db in
            try db.execute(sql: groupTables)
        }
        migrator.registerMigration("v8-group-held-trees") { db in
            try db.execute(sql: groupHeldTable)
        }
        migrator.registerMigration("v9-pending-contacts") { db in
            try db.execute(sql: pendingContactTables)
        }
        migrator.registerMigration("v10-invites") { db in
            try db.execute(sql: inviteTables)
        }
        migrator.registerMigration("v11-one-time-pools") { db in
            try db.execute(sql: oneTimePoolTables)
        }
        migrator.registerMigration("v12-invite-strangers") { db in
            try db.execute(sql: inviteStrangerTables)
        }
        migrator.registerMigration("v13-push") { db in
            try db.execute(sql: pushTables)
        }
        migrator.registerMigration("v14-otk-confirm-intent") { db in
            try db.execute(sql: oneTimeConfirmIntent)
        }
        migrator.registerMigration("v15-group-ratchets") { db in
            try db.execute(sql: groupRatchetsTable)
        }
        migrator.registerMigration("v16-group-peers") { db in
            try db.execute(sql: groupPeerTables)
        }
        migrator.registerMigration("v17-group-key-offers") { db in
            try db.execute(sql: groupKeyOfferTables)
        }
        migrator.registerMigration("v18-recovery-shares") { db in
            try db.execute(sql: recoveryTables)
        }
        migrator.registerMigration("v19-rescue-recovery-set-state") { db in
            try db.execute(sql: recoverySetStateColumns)
        }
        migrator.registerMigration("v19-reestablish-tasks") { db in
            try db.execute(sql: reestablishTables)
        }
        migrator.registerMigration("v19-fork-acknowledged") { db in
            try db.execute(sql: forkAcknowledgedColumn)
        }
        migrator.registerMigration("v20-committer-readmission") { db in
            try db.execute(sql: committerReadmissionColumns)
        }
        migrator.registerMigration("v20-recovery-revoked") { db in
            try db.execute(sql: recoveryRevokedTable)
        }
        return migrator
    }

    /// Spec 9.1, verbatim.
    static let specTables = """
        CREATE TABLE messages (
            message_id TEXT PRIMARY KEY,
            feed_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            timestamp INTEGER NOT NULL,
            type TEXT NOT NULL,
            audience TEXT NOT NULL,
            envelope_json TEXT NOT NULL,
            content_json TEXT,
            tombstoned INTEGER DEFAULT 0,
            received_at INTEGER NOT NULL,
            UNIQUE(feed_id, sequence)
        );
        CREATE INDEX idx_messages_feed_seq ON messages(feed_id, sequence);
        CREATE INDEX idx_messages_timestamp ON messages(timestamp);
        CREATE INDEX idx_messages_type ON messages(type);
        CREATE INDEX idx_messages_received_at ON messages(received_at);
        CREATE TABLE blobs (
            content_hash TEXT PRIMARY KEY,
            data BLOB NOT NULL,
            mime_type TEXT,
            size_bytes INTEGER NOT NULL,
            stored_at INTEGER NOT NULL
        );
        CREATE TABLE contacts (
            feed_id TEXT PRIMARY KEY,
            display_name TEXT,
            avatar_hash TEXT,
            identity_key_pub TEXT NOT NULL,
            dh_key_pub TEXT NOT NULL,
            pq_key_pub TEXT NOT NULL,
            contacts_key TEXT NOT NULL,
            added_at INTEGER NOT NULL,
            last_seen_seq INTEGER DEFAULT -1
        );
        CREATE TABLE mls_groups (
            group_id TEXT PRIMARY KEY,
            group_name TEXT,
            epoch INTEGER NOT NULL DEFAULT 0,
            mls_state_blob BLOB NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE mls_group_members (
            group_id TEXT NOT NULL REFERENCES mls_groups(group_id),
            feed_id TEXT NOT NULL,
            joined_at_epoch INTEGER NOT NULL,
            PRIMARY KEY(group_id, feed_id)
        );
        CREATE TABLE dr_sessions (
            peer_feed_id TEXT PRIMARY KEY REFERENCES contacts(feed_id),
            session_state BLOB NOT NULL,
            last_updated INTEGER NOT NULL
        );
        """

    /// Kith's additions (documented in docs/FEED-FORMAT.md, "Storage").
    static let kithTables = """
        CREATE TABLE feeds (
            feed_id TEXT PRIMARY KEY,
            identity_key_pub TEXT NOT NULL,
            is_local INTEGER NOT NULL DEFAULT 0,
            forked INTEGER NOT NULL DEFAULT 0,
            added_at INTEGER NOT NULL
        );
        CREATE TABLE feed_keys (
            feed_id TEXT NOT NULL REFERENCES feeds(feed_id),
            from_sequence INTEGER NOT NULL,
            identity_key_pub TEXT NOT NULL,
            verified INTEGER NOT NULL,
            PRIMARY KEY(feed_id, from_sequence)
        );
        CREATE TABLE message_stubs (
            feed_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            message_id TEXT NOT NULL UNIQUE,
            reason TEXT NOT NULL,
            entry_json TEXT,
            received_at INTEGER NOT NULL,
            PRIMARY KEY(feed_id, sequence)
        );
        CREATE TABLE own_self_stubs (
            message_id TEXT PRIMARY KEY,
            entry_json TEXT NOT NULL
        );
        CREATE TABLE pending_entries (
            message_id TEXT NOT NULL,
            feed_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            previous TEXT,
            kind TEXT NOT NULL,
            entry_json TEXT NOT NULL,
            received_at INTEGER NOT NULL,
            PRIMARY KEY(message_id, sequence, kind)
        );
        CREATE INDEX idx_pending_feed_seq ON pending_entries(feed_id, sequence);
        CREATE TABLE foreign_envelopes (
            message_id TEXT PRIMARY KEY,
            feed_id TEXT,
            sequence INTEGER,
            version INTEGER NOT NULL,
            envelope_json TEXT NOT NULL,
            received_at INTEGER NOT NULL
        );
        CREATE TABLE fork_evidence (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            feed_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            kept_message_id TEXT NOT NULL,
            conflicting_message_id TEXT NOT NULL,
            conflicting_entry_json TEXT NOT NULL,
            reason TEXT NOT NULL,
            detected_at INTEGER NOT NULL,
            UNIQUE(kept_message_id, conflicting_message_id)
        );
        """

    /// Contact exchange, introductions, key rotations (docs/FEED-FORMAT.md section 11, "Storage").
    /// `contacts.contacts_key` holds the key sealed by ``ContentSealer`` (context
    /// `contacts_key:{feed_id}`); `key_stale` = 1 when a verified rotation changed the contact's dh
    /// key and the account must re-derive it. `contact_dh_keys` keeps every dh key a contact used,
    /// so older posts stay readable. `key_rotations` records every rotation seen, verified or not;
    /// only verified ones reach `feed_keys`. Introduction notes are sealed (context
    /// `introduction:{message_id}`).
    static let contactsTables = """
        ALTER TABLE contacts ADD COLUMN local_name TEXT;
        ALTER TABLE contacts ADD COLUMN card TEXT;
        ALTER TABLE contacts ADD COLUMN profile_sequence INTEGER NOT NULL DEFAULT -1;
        ALTER TABLE contacts ADD COLUMN key_stale INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE contact_dh_keys (
            feed_id TEXT NOT NULL,
            dh_key_pub TEXT NOT NULL,
            from_sequence INTEGER NOT NULL,
            PRIMARY KEY(feed_id, dh_key_pub)
        );
        CREATE TABLE key_rotations (
            message_id TEXT PRIMARY KEY,
            feed_id TEXT NOT NULL,
            sequence INTEGER NOT NULL,
            new_identity_key TEXT NOT NULL,
            new_dh_key TEXT NOT NULL,
            new_pq_key TEXT NOT NULL,
            verified INTEGER NOT NULL,
            reason TEXT,
            recorded_at INTEGER NOT NULL
        );
        CREATE TABLE contact_introductions (
            introduced_feed_id TEXT NOT NULL,
            introducer_feed_id TEXT NOT NULL,
            dh_key_pub TEXT NOT NULL,
            pq_key_pub TEXT NOT NULL,
            note_sealed TEXT,
            message_id TEXT NOT NULL,
            introduced_at INTEGER NOT NULL,
            PRIMARY KEY(introduced_feed_id, introducer_feed_id)
        );
        """
}
