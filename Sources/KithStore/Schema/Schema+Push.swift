extension Schema {
    /// Push knocks, the client side (docs/PUSH-CLIENT.md, "Storage"). Every secret is sealed under the
    /// identity's storage key (``ContentSealer``); tokens are found by a keyed digest, never by their value.
    ///
    /// - `push_registration`: this identity's registration at a gateway and a push service (one row per local
    ///   feed): the URLs in clear, the account name, and one sealed JSON object holding the account password,
    ///   the gateway auth token, the device id, the push endpoint (a capability), the subscription secret and
    ///   the RFC 8291 receiver private key and auth secret.
    /// - `push_tokens_issued`: whitelist tokens this identity issued to each contact (`state` 0 unused, 1 used
    ///   by a knock, 2 to revoke at the gateway because the contact was removed or revoked).
    /// - `push_tokens_held`: tokens contacts handed this identity, with their gateway endpoint, both sealed
    ///   (`state` 0 unused, 1 used, 2 dead: the gateway answered 404 or the token expired).
    static let pushTables = """
        CREATE TABLE push_registration (
            local_feed_id TEXT PRIMARY KEY,
            gateway_url TEXT NOT NULL,
            push_service_url TEXT NOT NULL,
            account_username TEXT NOT NULL,
            secrets_sealed TEXT NOT NULL,
            registered_at INTEGER NOT NULL
        );
        CREATE TABLE push_tokens_issued (
            token_digest BLOB PRIMARY KEY,
            peer_feed_id TEXT NOT NULL,
            token_sealed TEXT NOT NULL,
            state INTEGER NOT NULL DEFAULT 0,
            issued_at INTEGER NOT NULL,
            expires_at INTEGER
        );
        CREATE INDEX idx_push_tokens_issued_peer ON push_tokens_issued(peer_feed_id, state);
        CREATE TABLE push_tokens_held (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            peer_feed_id TEXT NOT NULL,
            token_digest BLOB NOT NULL,
            token_sealed TEXT NOT NULL,
            endpoint_sealed TEXT NOT NULL,
            state INTEGER NOT NULL DEFAULT 0,
            expires_at INTEGER,
            received_at INTEGER NOT NULL,
            UNIQUE(peer_feed_id, token_digest)
        );
        CREATE INDEX idx_push_tokens_held_peer ON push_tokens_held(peer_feed_id, state, id);
        """
}
