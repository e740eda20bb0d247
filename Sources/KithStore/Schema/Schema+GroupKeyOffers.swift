extension Schema {
    /// Automatic KeyPackage offers (docs/GROUPS.md, "Automatic offers").
    ///
    /// - `mls_own_key_packages.automatic`: 1 for a KeyPackage made by an automatic offer (at most
    ///   ``GroupStoreAccess/maxAutomaticKeyPackagesPerContact`` per contact), 0 for one the user shared or handed over.
    /// - `mls_key_offer_settings`: one row (`id` 1) when the user set the switch; no row means on.
    /// - `mls_auto_key_offers`: when the last automatic offer to a contact was made (account clock, seconds), so a
    ///   contact consuming offers makes at most one new one per ``GroupStoreAccess/automaticKeyOfferInterval``.
    static let groupKeyOfferTables = """
        ALTER TABLE mls_own_key_packages ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE mls_key_offer_settings (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            automatic INTEGER NOT NULL
        );
        CREATE TABLE mls_auto_key_offers (
            recipient_feed_id TEXT PRIMARY KEY,
            offered_at INTEGER NOT NULL
        );
        """
}
