extension Schema {
    /// Re-establishment after a restore (docs/CONTINUITY.md section 8).
    ///
    /// - `reestablish_tasks`: what a restored identity still has to send, one row per task: `kind` `prekeys` (target a
    ///   contact's feed id: a fresh prekey batch that also says the one-time pool is dead) or `readmission` (target a
    ///   group id, `members` the group's members as the backup knew them, space-separated). `state` is `pending`,
    ///   `requested` (readmission asked, waiting for the Welcome) or `done`. Never carried by a backup.
    /// - `readmission_requests`: on a member's side, every readmission request received (a `mls_key_package` with
    ///   `readmit`): group, requester, the KeyPackage's reference, and how it was settled (`pending`, `honoured`,
    ///   `refused` with a reason). At most one row per KeyPackage; the rate limit reads the honoured ones.
    static let reestablishTables = """
        CREATE TABLE reestablish_tasks (
            kind TEXT NOT NULL,
            target TEXT NOT NULL,
            members TEXT NOT NULL DEFAULT '',
            state TEXT NOT NULL,
            updated_at INTEGER NOT NULL,
            PRIMARY KEY(kind, target)
        ) WITHOUT ROWID;
        CREATE TABLE readmission_requests (
            key_package_ref TEXT PRIMARY KEY,
            group_id TEXT NOT NULL,
            requester_feed_id TEXT NOT NULL,
            state TEXT NOT NULL,
            reason TEXT,
            received_at INTEGER NOT NULL,
            settled_at INTEGER
        );
        CREATE INDEX idx_readmission_requests_group ON readmission_requests(group_id, requester_feed_id, state);
        """

    /// A committer restored from a backup is readmitted through a member it names (docs/CONTINUITY.md section 8):
    /// `reestablish_tasks.committer` is the group's committer as the backup knew it; `readmission_requests.
    /// committer_readmission` is the requester's signed warrant (the encoded `CommitterReadmission`) naming this identity
    /// as proxy, NULL for an ordinary request. Migration `v20-committer-readmission`.
    static let committerReadmissionColumns = """
        ALTER TABLE reestablish_tasks ADD COLUMN committer TEXT;
        ALTER TABLE readmission_requests ADD COLUMN committer_readmission BLOB;
        """
}
