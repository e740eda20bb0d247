extension Schema {
    /// Pending contacts (docs/FEED-FORMAT.md 11.9): a scanned compact card waiting for the full card it commits to.
    /// `compact_card` is the compact card's encoded bytes (public keys, a name, a commitment, a signature: nothing
    /// secret); `scanned_at` is Unix seconds. At most ``PendingContactRecord/maximumCount`` rows: a new scan evicts
    /// the oldest. Completing the contact (the full card added) deletes the row in the same transaction.
    static let pendingContactTables = """
        CREATE TABLE pending_contacts (
            feed_id TEXT PRIMARY KEY,
            compact_card BLOB NOT NULL,
            local_name TEXT,
            scanned_at INTEGER NOT NULL
        );
        CREATE INDEX idx_pending_contacts_scanned_at ON pending_contacts(scanned_at);
        """
}
