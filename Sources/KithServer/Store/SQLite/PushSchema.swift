import GRDB

/// The push database schema (gateway and push service), as named GRDB migrations (never edited once shipped).
///
/// Times are milliseconds since the epoch. Whitelist tokens, API tokens, subscription secrets and
/// capabilities are stored as SHA-256 digests only.
enum PushSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("push-v1") { db in
            try db.execute(sql: """
                CREATE TABLE push_accounts (
                    id TEXT PRIMARY KEY NOT NULL,
                    username TEXT NOT NULL UNIQUE,
                    email TEXT,
                    password_record TEXT NOT NULL,
                    auth_digest BLOB NOT NULL UNIQUE,
                    created_at INTEGER NOT NULL
                );

                CREATE TABLE push_devices (
                    id TEXT PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL REFERENCES push_accounts(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    name TEXT,
                    active INTEGER NOT NULL,
                    registration_id TEXT NOT NULL,
                    device_id TEXT,
                    p256dh TEXT,
                    auth TEXT,
                    created_at INTEGER NOT NULL,
                    UNIQUE (owner, kind, registration_id)
                );

                CREATE TABLE push_tokens (
                    digest BLOB PRIMARY KEY NOT NULL,
                    owner TEXT NOT NULL REFERENCES push_accounts(id) ON DELETE CASCADE,
                    device_id TEXT NOT NULL REFERENCES push_devices(id) ON DELETE CASCADE,
                    device_kind TEXT NOT NULL,
                    name TEXT,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX push_tokens_owner ON push_tokens(owner);
                CREATE INDEX push_tokens_expires ON push_tokens(expires_at);

                -- deleted_at set: a tombstone (the capability answers 410 until the sweep forgets it).
                CREATE TABLE push_subscriptions (
                    id TEXT PRIMARY KEY NOT NULL,
                    secret_digest BLOB NOT NULL UNIQUE,
                    capability_digest BLOB NOT NULL UNIQUE,
                    vapid_key BLOB,
                    created_at INTEGER NOT NULL,
                    deleted_at INTEGER
                );

                CREATE TABLE push_messages (
                    id TEXT PRIMARY KEY NOT NULL,
                    subscription_id TEXT NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
                    body BLOB NOT NULL,
                    urgency TEXT NOT NULL,
                    topic TEXT,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX push_messages_subscription ON push_messages(subscription_id, created_at);
                CREATE INDEX push_messages_expires ON push_messages(expires_at);
                """)
        }
        migrator.registerMigration("push-v2-token-derivation") { db in
            // The nonce a whitelist token was derived from with its owner's API token (never the token itself).
            try db.execute(sql: "ALTER TABLE push_tokens ADD COLUMN derivation_nonce BLOB")
        }
        return migrator
    }
}
