extension Schema {
    /// Group peers (docs/INVITES.md, "Group peers"): members of a group this identity shares who are not contacts but
    /// whose full contact card this identity checked in an invite exchange (the creator and a joiner who never met).
    /// Their `dh_key` opens a sync link while they share an active group with this identity; their card is public data
    /// (what a card QR code shows). Pruned when they share no group any more; at most
    /// ``GroupStoreAccess/maxGroupPeers`` rows.
    static let groupPeerTables = """
        CREATE TABLE group_peers (
            feed_id TEXT PRIMARY KEY,
            dh_key TEXT NOT NULL,
            card BLOB NOT NULL,
            added_at INTEGER NOT NULL
        );
        CREATE INDEX idx_group_peers_dh ON group_peers(dh_key);
        """
}
