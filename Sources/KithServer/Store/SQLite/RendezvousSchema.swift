import GRDB

/// The rendezvous database schema, as named GRDB migrations (never edited once shipped).
///
/// Times are milliseconds since the epoch on the server's clock. Identifiers are stored as sent.
enum RendezvousSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("rendezvous-v1") { db in
            // A code offered by client1; client2 and room_id are set once, by the accept winner.
            try db.execute(sql: """
                CREATE TABLE pendings (
                    join_id TEXT PRIMARY KEY NOT NULL,
                    client1 TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    client2 TEXT,
                    room_id TEXT,
                    accepted_at INTEGER
                );
                CREATE INDEX pendings_client1 ON pendings(client1);
                CREATE INDEX pendings_client2 ON pendings(client2);
                CREATE INDEX pendings_expires ON pendings(expires_at);

                CREATE TABLE rooms (
                    room_id TEXT PRIMARY KEY NOT NULL,
                    join_id TEXT NOT NULL,
                    client1 TEXT NOT NULL,
                    client2 TEXT NOT NULL,
                    created_at INTEGER NOT NULL,
                    expires_at INTEGER NOT NULL,
                    initiator_device TEXT
                );
                CREATE INDEX rooms_join ON rooms(join_id, client1);
                CREATE INDEX rooms_client1 ON rooms(client1);
                CREATE INDEX rooms_client2 ON rooms(client2);
                CREATE INDEX rooms_expires ON rooms(expires_at);

                -- A connection is in at most one room; a room holds at most two (checked in join).
                CREATE TABLE members (
                    node_id TEXT NOT NULL,
                    client_id TEXT NOT NULL,
                    room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
                    device_id TEXT,
                    is_initiator INTEGER NOT NULL,
                    joined_at INTEGER NOT NULL,
                    PRIMARY KEY (node_id, client_id)
                );
                CREATE INDEX members_room ON members(room_id);
                CREATE INDEX members_device ON members(device_id);
                """)
        }
        migrator.registerMigration("rooms-presence-tokens") { db in
            // Inviso's presence pushes: each side's push token and platform (client1's waits in the pairing until
            // the accept copies it to the room). Deleted with the row; nulled when the push service refuses it.
            try db.execute(sql: """
                ALTER TABLE pendings ADD COLUMN client1_token TEXT;
                ALTER TABLE pendings ADD COLUMN client1_platform TEXT;
                ALTER TABLE rooms ADD COLUMN client1_token TEXT;
                ALTER TABLE rooms ADD COLUMN client1_platform TEXT;
                ALTER TABLE rooms ADD COLUMN client2_token TEXT;
                ALTER TABLE rooms ADD COLUMN client2_platform TEXT;
                """)
        }
        return migrator
    }
}
