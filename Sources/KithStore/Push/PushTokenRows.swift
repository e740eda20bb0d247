import Foundation
import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// The SQL behind push tokens, shared by ``FeedStore`` and the direct-message transaction.
enum PushTokenRows {
    /// Digest domain of tokens this identity issued.
    static let issuedDomain = "kith-push-issued-v1"
    /// Digest domain of tokens contacts handed over.
    static let heldDomain = "kith-push-held-v1"
    /// Most tokens kept from one contact: a contact cannot grow the table without bound.
    static let maxHeldPerContact = 100
    /// Most unused tokens issued to one contact.
    static let maxIssuedPerContact = 100

    /// Marks every token issued to `peer` for revocation at the gateway.
    static func revokeIssued(to peer: String, in db: Database) throws {
        try db.execute(cached: "UPDATE push_tokens_issued SET state = 2 WHERE peer_feed_id = ?", arguments: [peer])
    }

    /// Adds tokens a contact handed over (`push_tokens` content already validated): a new endpoint replaces the
    /// contact's unused tokens; known tokens are skipped; the pool keeps the newest ``maxHeldPerContact``.
    static func acceptHeld(_ content: PushTokens, from peer: String, in db: Database, sealer: ContentSealer, now: Int64) throws -> PushTokensAcceptance {
        var replaced = 0
        let current = try Row.fetchAll(
            db, cached: "SELECT id, endpoint_sealed FROM push_tokens_held WHERE peer_feed_id = ? AND state = 0", arguments: [peer]
        )
        for row in current {
            let id: Int64 = row["id"]
            let endpoint = try? sealer.open(row["endpoint_sealed"], context: "push-held-endpoint:\(peer)")
            if endpoint.map({ !$0.elementsEqual(content.apiBase.utf8) }) ?? true {
                try db.execute(cached: "DELETE FROM push_tokens_held WHERE id = ?", arguments: [id])
                replaced += 1
            }
        }
        var added = 0
        let expires = content.expiresAt
        for hex in content.tokens {
            guard let bytes = Hex.decode(hex), bytes.count == 20 else { continue }
            let digest = sealer.lookupDigest(bytes, domain: heldDomain)
            try db.execute(
                cached: """
                    INSERT OR IGNORE INTO push_tokens_held(peer_feed_id, token_digest, token_sealed, endpoint_sealed, state, expires_at, received_at)
                    VALUES (?, ?, ?, ?, 0, ?, ?)
                    """,
                arguments: [peer, Data(digest), sealer.seal(bytes, context: "push-held:\(peer):\(Hex.encode(digest))"),
                            sealer.seal(Array(content.apiBase.utf8), context: "push-held-endpoint:\(peer)"), expires, now]
            )
            added += db.changesCount
        }
        // Bound the pool: spent tokens go first, then the oldest unused.
        try db.execute(
            cached: """
                DELETE FROM push_tokens_held WHERE peer_feed_id = ?1 AND id NOT IN (
                    SELECT id FROM push_tokens_held WHERE peer_feed_id = ?1 ORDER BY state = 0 DESC, id DESC LIMIT ?2)
                """,
            arguments: [peer, maxHeldPerContact]
        )
        return PushTokensAcceptance(added: added, replaced: replaced)
    }
}
