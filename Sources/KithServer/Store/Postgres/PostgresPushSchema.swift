/// The PostgreSQL tables of ``PostgresPushStore`` (created if absent; times in milliseconds since
/// the epoch; tokens, secrets and capabilities as SHA-256 digests only).
enum PostgresPushSchema {
    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS kith_push_accounts (
            id TEXT PRIMARY KEY, username TEXT NOT NULL UNIQUE, email TEXT, password_record TEXT NOT NULL,
            auth_digest BYTEA NOT NULL UNIQUE, created_at BIGINT NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS kith_push_devices (
            id TEXT PRIMARY KEY, owner TEXT NOT NULL REFERENCES kith_push_accounts(id) ON DELETE CASCADE,
            kind TEXT NOT NULL, name TEXT, active BOOLEAN NOT NULL, registration_id TEXT NOT NULL, device_id TEXT,
            p256dh TEXT, auth TEXT, created_at BIGINT NOT NULL, seq BIGSERIAL, UNIQUE (owner, kind, registration_id))
        """,
        """
        CREATE TABLE IF NOT EXISTS kith_push_tokens (
            digest BYTEA PRIMARY KEY, owner TEXT NOT NULL REFERENCES kith_push_accounts(id) ON DELETE CASCADE,
            device_id TEXT NOT NULL REFERENCES kith_push_devices(id) ON DELETE CASCADE, device_kind TEXT NOT NULL,
            name TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, seq BIGSERIAL)
        """,
        // The nonce a whitelist token was derived from with its owner's API token (added after the first release).
        "ALTER TABLE kith_push_tokens ADD COLUMN IF NOT EXISTS derivation_nonce BYTEA",
        "CREATE INDEX IF NOT EXISTS kith_push_tokens_owner ON kith_push_tokens(owner)",
        "CREATE INDEX IF NOT EXISTS kith_push_tokens_expires ON kith_push_tokens(expires_at)",
        """
        CREATE TABLE IF NOT EXISTS kith_push_subscriptions (
            id TEXT PRIMARY KEY, secret_digest BYTEA NOT NULL UNIQUE, capability_digest BYTEA NOT NULL UNIQUE,
            vapid_key BYTEA, created_at BIGINT NOT NULL, deleted_at BIGINT)
        """,
        """
        CREATE TABLE IF NOT EXISTS kith_push_messages (
            id TEXT PRIMARY KEY, subscription_id TEXT NOT NULL REFERENCES kith_push_subscriptions(id) ON DELETE CASCADE,
            body BYTEA NOT NULL, urgency TEXT NOT NULL, topic TEXT, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
            seq BIGSERIAL)
        """,
        "CREATE INDEX IF NOT EXISTS kith_push_messages_subscription ON kith_push_messages(subscription_id, created_at, seq)",
        "CREATE INDEX IF NOT EXISTS kith_push_messages_expires ON kith_push_messages(expires_at)",
    ]
}
