import GRDB

/// What this device remembers about syncing with one peer (table `sync_peer_state`).
public struct SyncPeerRecord: Sendable, Equatable {
    /// The peer's Noise static key (its X25519 `dh_key`), base64url.
    public var peerKey: String
    /// When the last session started, Unix milliseconds.
    public var lastAttemptAt: Int64
    /// When the last completed session ended, Unix milliseconds (nil: never completed).
    public var lastCompletedAt: Int64?
    /// Sessions run with this peer.
    public var sessions: Int
    /// Sessions that ended early (link lost or protocol violation).
    public var interruptedSessions: Int
    /// Messages received and accepted from this peer, over all sessions.
    public var messagesReceived: Int
    /// Messages sent to this peer, over all sessions.
    public var messagesSent: Int
    /// Blobs received from this peer, over all sessions.
    public var blobsReceived: Int
}

/// The outcome of one session, as recorded by ``FeedStore/recordSyncSession(peerKey:outcome:nowMillis:)``.
public struct SyncSessionOutcome: Sendable, Equatable {
    /// True when the session completed.
    public var completed: Bool
    /// Messages accepted from the peer.
    public var messagesReceived: Int
    /// Messages sent to the peer.
    public var messagesSent: Int
    /// Blobs received.
    public var blobsReceived: Int

    /// Creates an outcome.
    public init(completed: Bool, messagesReceived: Int, messagesSent: Int, blobsReceived: Int) {
        self.completed = completed
        self.messagesReceived = messagesReceived
        self.messagesSent = messagesSent
        self.blobsReceived = blobsReceived
    }
}

extension FeedStore {
    /// Adds one session's outcome to the peer's record (created on first use).
    public func recordSyncSession(peerKey: String, outcome: SyncSessionOutcome, nowMillis: Int64? = nil) throws(StoreError) {
        let now = nowMillis ?? Self.nowMillis()
        try write { db in
            try db.execute(
                cached: """
                    INSERT INTO sync_peer_state(peer_key, last_attempt_at, last_completed_at, sessions, interrupted_sessions,
                                                messages_received, messages_sent, blobs_received)
                    VALUES (?1, ?2, CASE WHEN ?3 THEN ?2 END, 1, CASE WHEN ?3 THEN 0 ELSE 1 END, ?4, ?5, ?6)
                    ON CONFLICT(peer_key) DO UPDATE SET
                        last_attempt_at = ?2,
                        last_completed_at = CASE WHEN ?3 THEN ?2 ELSE last_completed_at END,
                        sessions = sessions + 1,
                        interrupted_sessions = interrupted_sessions + CASE WHEN ?3 THEN 0 ELSE 1 END,
                        messages_received = messages_received + ?4,
                        messages_sent = messages_sent + ?5,
                        blobs_received = blobs_received + ?6
                    """,
                arguments: [peerKey, now, outcome.completed, outcome.messagesReceived, outcome.messagesSent, outcome.blobsReceived]
            )
        }
    }

    /// The record of one peer, if it ever synced.
    public func syncPeerRecord(peerKey: String) throws(StoreError) -> SyncPeerRecord? {
        try read { db in
            try Row.fetchOne(db, cached: "SELECT * FROM sync_peer_state WHERE peer_key = ?", arguments: [peerKey]).map(Self.syncPeerRecord)
        }
    }

    /// Every peer record, most recent attempt first.
    public func syncPeerRecords() throws(StoreError) -> [SyncPeerRecord] {
        try read { db in
            try Row.fetchAll(db, cached: "SELECT * FROM sync_peer_state ORDER BY last_attempt_at DESC").map(Self.syncPeerRecord)
        }
    }

    private static func syncPeerRecord(_ row: Row) -> SyncPeerRecord {
        SyncPeerRecord(
            peerKey: row["peer_key"], lastAttemptAt: row["last_attempt_at"], lastCompletedAt: row["last_completed_at"],
            sessions: row["sessions"], interruptedSessions: row["interrupted_sessions"],
            messagesReceived: row["messages_received"], messagesSent: row["messages_sent"], blobsReceived: row["blobs_received"]
        )
    }
}
