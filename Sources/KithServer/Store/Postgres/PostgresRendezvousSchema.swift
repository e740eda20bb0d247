import Foundation

/// The PostgreSQL tables of ``PostgresRendezvousStore`` (created if absent; times in milliseconds since the epoch).
enum PostgresRendezvousSchema {
    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS kith_pendings (
            join_id TEXT PRIMARY KEY, client1 TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL,
            client2 TEXT, room_id TEXT, accepted_at BIGINT)
        """,
        "CREATE INDEX IF NOT EXISTS kith_pendings_expires ON kith_pendings(expires_at)",
        """
        CREATE TABLE IF NOT EXISTS kith_rooms (
            room_id TEXT PRIMARY KEY, join_id TEXT NOT NULL, client1 TEXT NOT NULL, client2 TEXT NOT NULL,
            created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, initiator_device TEXT)
        """,
        "CREATE INDEX IF NOT EXISTS kith_rooms_join ON kith_rooms(join_id, client1)",
        "CREATE INDEX IF NOT EXISTS kith_rooms_expires ON kith_rooms(expires_at)",
        """
        CREATE TABLE IF NOT EXISTS kith_members (
            node_id TEXT NOT NULL, client_id TEXT NOT NULL,
            room_id TEXT NOT NULL REFERENCES kith_rooms(room_id) ON DELETE CASCADE,
            device_id TEXT, is_initiator BOOLEAN NOT NULL, joined_at BIGINT NOT NULL, seq BIGSERIAL,
            PRIMARY KEY (node_id, client_id))
        """,
        "CREATE INDEX IF NOT EXISTS kith_members_room ON kith_members(room_id)",
        "CREATE INDEX IF NOT EXISTS kith_members_device ON kith_members(device_id)",
    ]

    /// Columns added after the first release ("rooms-presence-tokens": Inviso's push tokens per side), idempotent; run
    /// only when ``presenceColumnsPresent`` says they are missing (an `ALTER TABLE` locks the table even when it changes
    /// nothing).
    static let presenceUpgrade = [
        "ALTER TABLE kith_pendings ADD COLUMN IF NOT EXISTS client1_token TEXT",
        "ALTER TABLE kith_pendings ADD COLUMN IF NOT EXISTS client1_platform TEXT",
        "ALTER TABLE kith_rooms ADD COLUMN IF NOT EXISTS client1_token TEXT",
        "ALTER TABLE kith_rooms ADD COLUMN IF NOT EXISTS client1_platform TEXT",
        "ALTER TABLE kith_rooms ADD COLUMN IF NOT EXISTS client2_token TEXT",
        "ALTER TABLE kith_rooms ADD COLUMN IF NOT EXISTS client2_platform TEXT",
    ]

    /// True when the last column of ``presenceUpgrade`` exists (the statements run in one transaction).
    static let presenceColumnsPresent = """
        SELECT EXISTS (SELECT 1 FROM information_schema.columns
                       WHERE table_schema = current_schema() AND table_name = 'kith_rooms' AND column_name = 'client2_platform')
        """
}

/// The parts of a `postgres://user[:password]@host[:port]/database` URL.
struct URLParts {
    let user: String
    let password: String?
    let host: String
    let port: Int
    let database: String

    init?(_ url: String) {
        guard url.utf8.count <= 1024, let components = URLComponents(string: url),
              components.scheme == "postgres" || components.scheme == "postgresql",
              let user = components.user, !user.isEmpty, let host = components.host, !host.isEmpty else { return nil }
        let database = String(components.path.dropFirst())
        let port = components.port ?? 5432
        guard !database.isEmpty, !database.contains("/"), (1...65_535).contains(port) else { return nil }
        self.user = user
        password = components.password
        self.host = host
        self.port = port
        self.database = database
    }
}
