extension Schema {
    /// Recovery through contacts (docs/CONTINUITY.md): the guardian sets this identity made (public facts only: set
    /// id, generation, threshold, guardians in share order; the shares themselves are never kept by the owner), and
    /// the shares it holds for others as a guardian, one row per owner (the newest generation), sealed at rest; and
    /// on a new device, the one pending recovery request's private key, sealed at rest.
    static let recoveryTables = """
        CREATE TABLE recovery_own_sets (
            generation INTEGER PRIMARY KEY,
            set_id TEXT NOT NULL,
            threshold INTEGER NOT NULL,
            guardians TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE recovery_held_shares (
            owner_feed_id TEXT PRIMARY KEY,
            set_id TEXT NOT NULL,
            generation INTEGER NOT NULL,
            share_sealed TEXT NOT NULL,
            received_at INTEGER NOT NULL
        );
        CREATE TABLE recovery_requests (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            key_sealed TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        """

    /// What a guardian set was made for and what became of it: the identity key current when it was made (the set is
    /// stale once the keys rotate), whether it carries the backup recovery key, and when it was revoked.
    static let recoverySetStateColumns = """
        ALTER TABLE recovery_own_sets ADD COLUMN identity_key TEXT;
        ALTER TABLE recovery_own_sets ADD COLUMN carries_backup_key INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE recovery_own_sets ADD COLUMN revoked_at INTEGER;
        """

    /// A guardian's memory of revocations: the highest generation each owner revoked (`recovery_revoke`), so a share
    /// of that generation or older is never kept again. Migration `v20-recovery-revoked`; carried by backups with the
    /// held shares.
    static let recoveryRevokedTable = """
        CREATE TABLE recovery_revoked (
            owner_feed_id TEXT PRIMARY KEY,
            generation INTEGER NOT NULL
        ) WITHOUT ROWID;
        """
}
