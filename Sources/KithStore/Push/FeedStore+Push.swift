import Foundation
import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// Push knocks, the client side (docs/PUSH-CLIENT.md): the registration, tokens issued to contacts and
/// tokens contacts handed over. Secrets are sealed; tokens are looked up by keyed digest.
extension FeedStore {
    // MARK: Registration

    /// Stores (or replaces) `local`'s push registration.
    public func savePushRegistration(_ record: PushRegistrationRecord, local: FeedID) throws(StoreError) {
        try write { db in
            try db.execute(
                cached: """
                    INSERT OR REPLACE INTO push_registration(local_feed_id, gateway_url, push_service_url, account_username, secrets_sealed, registered_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [local.string, record.gatewayURL, record.pushServiceURL, record.accountUsername,
                            sealer.seal(record.secrets.sealedForm, context: "push-registration:\(local.string)"), record.registeredAt]
            )
        }
    }

    /// `local`'s push registration, nil when not registered.
    public func pushRegistration(local: FeedID) throws(StoreError) -> PushRegistrationRecord? {
        let row = try read { db in try Row.fetchOne(db, cached: "SELECT * FROM push_registration WHERE local_feed_id = ?", arguments: [local.string]) }
        guard let row else { return nil }
        let opened = try sealer.open(row["secrets_sealed"], context: "push-registration:\(local.string)")
        return PushRegistrationRecord(
            gatewayURL: row["gateway_url"], pushServiceURL: row["push_service_url"], accountUsername: row["account_username"],
            secrets: try PushRegistrationSecrets(sealedForm: opened), registeredAt: row["registered_at"]
        )
    }

    /// Forgets `local`'s push registration; every token issued to a contact is marked for revocation.
    public func deletePushRegistration(local: FeedID) throws(StoreError) {
        try write { db in
            try db.execute(cached: "DELETE FROM push_registration WHERE local_feed_id = ?", arguments: [local.string])
            try db.execute(cached: "UPDATE push_tokens_issued SET state = 2")
        }
    }

    // MARK: Tokens issued to contacts

    /// Records tokens issued to `peer` (sealed, unused). Tokens already recorded are skipped.
    ///
    /// - Throws: ``StoreError/database(_:)`` when `peer` would hold more than 100 unused tokens, or a token was
    ///   issued to another contact (nothing is recorded then).
    public func recordIssuedPushTokens(_ tokens: [[UInt8]], to peer: FeedID, expiresAt: Int64?) throws(StoreError) {
        try write { db in
            let unused = try Int.fetchOne(
                db, cached: "SELECT COUNT(*) FROM push_tokens_issued WHERE peer_feed_id = ? AND state = 0", arguments: [peer.string]
            ) ?? 0
            guard unused + tokens.count <= PushTokenRows.maxIssuedPerContact else {
                throw StoreError.database("\(peer.string) would hold more than \(PushTokenRows.maxIssuedPerContact) unused push tokens")
            }
            for token in tokens {
                let digest = sealer.lookupDigest(token, domain: PushTokenRows.issuedDomain)
                if let holder = try String.fetchOne(
                    db, cached: "SELECT peer_feed_id FROM push_tokens_issued WHERE token_digest = ?", arguments: [Data(digest)]
                ), holder != peer.string {
                    // One contact's tokens are never handed to another: knocks could no longer be told apart.
                    throw StoreError.database("a push token was already issued to another contact; create fresh tokens for each contact")
                }
                try db.execute(
                    cached: "INSERT OR IGNORE INTO push_tokens_issued(token_digest, peer_feed_id, token_sealed, state, issued_at, expires_at) VALUES (?, ?, ?, 0, ?, ?)",
                    arguments: [Data(digest), peer.string, sealer.seal(token, context: "push-issued:\(Hex.encode(digest))"), Self.nowMillis(), expiresAt]
                )
            }
        }
    }

    /// Forgets issued tokens (a hand-off that could not be sent).
    public func forgetIssuedPushTokens(_ tokens: [[UInt8]]) throws(StoreError) {
        try write { db in
            for token in tokens {
                let digest = sealer.lookupDigest(token, domain: PushTokenRows.issuedDomain)
                try db.execute(cached: "DELETE FROM push_tokens_issued WHERE token_digest = ?", arguments: [Data(digest)])
            }
        }
    }

    /// Maps an incoming knock's token to the contact it was issued to and marks it used. The lookup is by
    /// keyed digest (an index seek), so no token is compared byte by byte against stored ones.
    ///
    /// - Returns: nil when this identity never issued the token (or it expired or was revoked and forgotten).
    public func takeIssuedPushToken(_ token: [UInt8], now: Int64) throws(StoreError) -> PushKnockOrigin? {
        let digest = Data(sealer.lookupDigest(token, domain: PushTokenRows.issuedDomain))
        return try write { db in
            guard let row = try Row.fetchOne(
                db, cached: "SELECT peer_feed_id, state, expires_at FROM push_tokens_issued WHERE token_digest = ?", arguments: [digest]
            ) else { return nil }
            let state: Int = row["state"]
            if let expires: Int64 = row["expires_at"], expires <= now, state != 2 { return nil }
            if state == 2 { return PushKnockOrigin(peer: nil, wasUsedBefore: true) }
            try db.execute(cached: "UPDATE push_tokens_issued SET state = 1 WHERE token_digest = ?", arguments: [digest])
            return PushKnockOrigin(peer: try? FeedID(row["peer_feed_id"] as String), wasUsedBefore: state == 1)
        }
    }

    /// Marks every token issued to `peer` for revocation at the gateway (see ``pendingPushRevocations()``).
    public func revokeIssuedPushTokens(to peer: FeedID) throws(StoreError) {
        try write { db in try PushTokenRows.revokeIssued(to: peer.string, in: db) }
    }

    /// Tokens to DELETE at the gateway: issued to removed or revoked contacts, or spent by a knock (a token knocks once).
    public func pendingPushRevocations(limit: Int = 500) throws(StoreError) -> [[UInt8]] {
        let rows = try read { db in
            try Row.fetchAll(db, cached: "SELECT token_digest, token_sealed FROM push_tokens_issued WHERE state IN (1, 2) LIMIT ?", arguments: [limit])
        }
        var tokens: [[UInt8]] = []
        for row in rows {
            let digest: Data = row["token_digest"]
            tokens.append(try sealer.open(row["token_sealed"], context: "push-issued:\(Hex.encode(digest))"))
        }
        return tokens
    }

    /// Forgets revoked tokens once the gateway deleted them (or no longer knows them).
    public func confirmPushRevocations(_ tokens: [[UInt8]]) throws(StoreError) {
        try write { db in
            for token in tokens {
                let digest = sealer.lookupDigest(token, domain: PushTokenRows.issuedDomain)
                try db.execute(cached: "DELETE FROM push_tokens_issued WHERE token_digest = ? AND state IN (1, 2)", arguments: [Data(digest)])
            }
        }
    }

    // MARK: Tokens held from contacts

    /// Accepts a `push_tokens` hand-off from `peer` outside a direct-message pass (tests and tools).
    @discardableResult
    public func acceptPushTokens(_ content: PushTokens, from peer: FeedID) throws(StoreError) -> PushTokensAcceptance {
        try write { db in try PushTokenRows.acceptHeld(content, from: peer.string, in: db, sealer: sealer, now: Self.nowMillis()) }
    }

    /// Takes the next unused, unexpired token `peer` handed over (oldest first) and marks it used; expired ones
    /// met on the way are marked dead. Nil when none is left.
    public func takeHeldPushToken(from peer: FeedID, now: Int64) throws(StoreError) -> HeldPushToken? {
        try write { db in
            while let row = try Row.fetchOne(
                db, cached: "SELECT id, token_digest, token_sealed, endpoint_sealed, expires_at FROM push_tokens_held WHERE peer_feed_id = ? AND state = 0 ORDER BY id LIMIT 1",
                arguments: [peer.string]
            ) {
                let id: Int64 = row["id"]
                let expires: Int64? = row["expires_at"]
                if let expires, expires <= now {
                    try db.execute(cached: "UPDATE push_tokens_held SET state = 2 WHERE id = ?", arguments: [id])
                    continue
                }
                let digest: Data = row["token_digest"]
                let token = try sealer.open(row["token_sealed"], context: "push-held:\(peer.string):\(Hex.encode(digest))")
                let endpoint = try sealer.open(row["endpoint_sealed"], context: "push-held-endpoint:\(peer.string)")
                try db.execute(cached: "UPDATE push_tokens_held SET state = 1 WHERE id = ?", arguments: [id])
                return HeldPushToken(peer: peer, token: token, endpoint: String(decoding: endpoint, as: UTF8.self), expiresAt: expires)
            }
            return nil
        }
    }

    /// Marks a held token dead (the gateway answered 404: unknown, expired or revoked).
    public func markHeldPushTokenDead(_ token: [UInt8], from peer: FeedID) throws(StoreError) {
        let digest = Data(sealer.lookupDigest(token, domain: PushTokenRows.heldDomain))
        try write { db in
            try db.execute(cached: "UPDATE push_tokens_held SET state = 2 WHERE peer_feed_id = ? AND token_digest = ?", arguments: [peer.string, digest])
        }
    }

    /// Token counts with every peer that has any, issued or held.
    public func pushTokenPools() throws(StoreError) -> [PushTokenPoolRecord] {
        try read { db in
            let rows = try Row.fetchAll(
                db, cached: """
                    SELECT peer, SUM(iu) AS iu, SUM(ix) AS ix, SUM(hu) AS hu, SUM(hx) AS hx FROM (
                        SELECT peer_feed_id AS peer, state = 0 AS iu, state = 1 AS ix, 0 AS hu, 0 AS hx FROM push_tokens_issued WHERE state < 2
                        UNION ALL
                        SELECT peer_feed_id, 0, 0, state = 0, state != 0 FROM push_tokens_held
                    ) GROUP BY peer ORDER BY peer
                    """
            )
            return rows.compactMap { row in
                guard let peer = try? FeedID(row["peer"] as String) else { return nil }
                return PushTokenPoolRecord(peer: peer, issuedUnused: row["iu"], issuedUsed: row["ix"], heldUnused: row["hu"], heldSpent: row["hx"])
            }
        }
    }
}
