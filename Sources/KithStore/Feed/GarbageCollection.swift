import Foundation
import GRDB
import KithFeed

/// Limits of garbage collection (spec 9.3); every one is configurable.
public struct GCPolicy: Sendable {
    /// Most messages kept per followed feed other than the local one (spec default 10,000).
    /// Older ones are pruned to stubs, so the chain stays verifiable.
    public var maxMessagesPerFeed: Int
    /// Blob store cap in bytes (spec default 500 MB).
    public var maxBlobBytes: Int64
    /// Unreferenced blobs older than this many seconds are deleted (spec default 7 days).
    public var unreferencedBlobAge: Int64
    /// The current time, Unix milliseconds (injectable for tests).
    public var nowMillis: Int64

    /// Creates a policy with the spec's defaults.
    public init(
        maxMessagesPerFeed: Int = 10_000,
        maxBlobBytes: Int64 = 500 * 1_000_000,
        unreferencedBlobAge: Int64 = 7 * 24 * 3600,
        nowMillis: Int64 = Int64(Date().timeIntervalSince1970 * 1000)
    ) {
        self.maxMessagesPerFeed = maxMessagesPerFeed
        self.maxBlobBytes = maxBlobBytes
        self.unreferencedBlobAge = unreferencedBlobAge
        self.nowMillis = nowMillis
    }
}

/// What a garbage collection removed.
public struct GCReport: Sendable, Equatable {
    /// Messages pruned to stubs because their feed exceeded its limit.
    public var prunedMessages = 0
    /// Blobs deleted.
    public var deletedBlobs = 0
    /// Bytes of blobs deleted.
    public var freedBlobBytes: Int64 = 0
    /// Blob bytes still stored afterwards.
    public var remainingBlobBytes: Int64 = 0
    /// Later-version entries (held pending or kept for relay) removed to keep them within
    /// ``StoreLimits`` (oldest first), or because their position is already linked.
    public var evictedUnauthenticated = 0
}

extension FeedStore {
    /// Prunes old messages of over-full feeds, deletes unreferenced blobs and trims later-version
    /// entries to the store's ``StoreLimits`` (``UnauthenticatedBounds``), in one transaction.
    ///
    /// Tombstoned messages keep their envelope row (their content is already cleared on ingest).
    /// A pruned message leaves a stub (feed, sequence, id) so later messages still link.
    public func collectGarbage(_ policy: GCPolicy) throws(StoreError) -> GCReport {
        let referenced = try referencedBlobHashes()
        return try write { db in
            var report = GCReport()
            let feeds = try String.fetchAll(db, cached: "SELECT feed_id FROM feeds WHERE is_local = 0")
            for feed in feeds {
                let count = try Int.fetchOne(db, cached: "SELECT COUNT(*) FROM messages WHERE feed_id = ?", arguments: [feed]) ?? 0
                let excess = count - policy.maxMessagesPerFeed
                guard excess > 0 else { continue }
                try db.execute(
                    cached: """
                        INSERT INTO message_stubs(feed_id, sequence, message_id, reason, received_at)
                        SELECT feed_id, sequence, message_id, 'pruned', received_at FROM messages
                        WHERE feed_id = ? ORDER BY sequence LIMIT ?
                        """,
                    arguments: [feed, excess]
                )
                try db.execute(
                    cached: "DELETE FROM messages WHERE message_id IN (SELECT message_id FROM messages WHERE feed_id = ? ORDER BY sequence LIMIT ?)",
                    arguments: [feed, excess]
                )
                report.prunedMessages += excess
            }
            let cutoff = policy.nowMillis - policy.unreferencedBlobAge * 1000
            let blobs = try Row.fetchAll(db, cached: "SELECT content_hash, size_bytes, stored_at FROM blobs ORDER BY stored_at")
            var total = blobs.reduce(Int64(0)) { $0 + ($1["size_bytes"] as Int64) }
            for blob in blobs {
                let hash: String = blob["content_hash"]
                guard !referenced.contains(hash) else { continue }
                let size: Int64 = blob["size_bytes"]
                let old = (blob["stored_at"] as Int64) < cutoff
                if old || total > policy.maxBlobBytes {
                    try db.execute(cached: "DELETE FROM blobs WHERE content_hash = ?", arguments: [hash])
                    report.deletedBlobs += 1
                    report.freedBlobBytes += size
                    total -= size
                }
            }
            report.remainingBlobBytes = total
            report.evictedUnauthenticated = try UnauthenticatedBounds.enforce(limits, feeds: nil, in: db)
            return report
        }
    }

    /// Blob hashes referenced by readable messages (attachments, avatars, group trees sent apart). Content is sealed,
    /// so references are found by opening it, never by querying plaintext columns.
    func referencedBlobHashes() throws(StoreError) -> Set<String> {
        var hashes = Set<String>()
        let rows: [(String, String, String)] = try read { db in
            try Row.fetchAll(db, cached: "SELECT message_id, type, content_json FROM messages WHERE content_json IS NOT NULL").map {
                ($0["message_id"], $0["type"], $0["content_json"])
            }
        }
        for (id, type, sealed) in rows {
            guard let plain = try? sealer.open(sealed, context: id), let content = try? Content.parse(plain, envelopeType: type) else { continue }
            switch content {
            case .post(let post): hashes.formUnion(post.attachments)
            case .profileUpdate(let update): if let hash = update.avatarHash { hashes.insert(hash) }
            case .groupTreeOffer(let offer): hashes.insert(offer.blob)
            default: break
            }
        }
        return hashes
    }
}
