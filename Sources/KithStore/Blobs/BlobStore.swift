import Foundation
import GRDB
import KithCanonical
import KithFeed

/// Limits of the blob store.
public struct BlobLimits: Sendable {
    /// Total bytes of blobs the store accepts (spec 9.3 default: 500 MB).
    public var maxStoreBytes: Int64
    /// Largest single blob, in bytes.
    public var maxBlobBytes: Int
    /// Creates limits with the defaults.
    public init(maxStoreBytes: Int64 = 500 * 1_000_000, maxBlobBytes: Int = ContactsLimits.maxBlobPlaintextBytes + 17) {
        self.maxStoreBytes = maxStoreBytes
        self.maxBlobBytes = maxBlobBytes
    }
}

extension FeedStore {
    /// Stores an encrypted blob under base64url(SHA-256(blob)); storing it again is a no-op.
    ///
    /// - Throws: ``StoreError/database(_:)`` when the blob or the store would exceed `limits`.
    @discardableResult
    public func putBlob(_ blob: [UInt8], mimeType: String? = nil, limits: BlobLimits = BlobLimits(), nowMillis: Int64? = nil) throws(StoreError) -> String {
        guard blob.count <= limits.maxBlobBytes else {
            throw .database("a blob of \(blob.count) bytes exceeds the \(limits.maxBlobBytes)-byte limit")
        }
        return try write { db in try Self.insertBlob(blob, mimeType: mimeType, limits: limits, nowMillis: nowMillis ?? Self.nowMillis(), in: db) }
    }

    /// Stores a blob in `db`'s transaction (checked against `limits`); returns its content hash.
    static func insertBlob(_ blob: [UInt8], mimeType: String?, limits: BlobLimits, nowMillis: Int64, in db: Database) throws -> String {
        guard blob.count <= limits.maxBlobBytes else {
            throw StoreError.database("a blob of \(blob.count) bytes exceeds the \(limits.maxBlobBytes)-byte limit")
        }
        let hash = BlobCipher.contentHash(of: blob)
        if try Int.fetchOne(db, cached: "SELECT 1 FROM blobs WHERE content_hash = ?", arguments: [hash]) != nil { return hash }
        let total = try Int64.fetchOne(db, cached: "SELECT COALESCE(SUM(size_bytes), 0) FROM blobs") ?? 0
        guard total + Int64(blob.count) <= limits.maxStoreBytes else {
            throw StoreError.database("the blob store is full (\(total) of \(limits.maxStoreBytes) bytes); run `kith gc`")
        }
        try db.execute(
            cached: "INSERT INTO blobs(content_hash, data, mime_type, size_bytes, stored_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [hash, Data(blob), mimeType, blob.count, nowMillis]
        )
        return hash
    }

    /// The encrypted blob with this content hash, if held.
    public func blob(_ contentHash: String) throws(StoreError) -> [UInt8]? {
        try read { db in
            try Data.fetchOne(db, cached: "SELECT data FROM blobs WHERE content_hash = ?", arguments: [contentHash]).map { Array($0) }
        }
    }

    /// The content hashes of every held blob.
    public func blobHashes() throws(StoreError) -> [String] {
        try read { db in try String.fetchAll(db, cached: "SELECT content_hash FROM blobs ORDER BY content_hash") }
    }

    /// The raw decrypted content JSON of a readable message (to reach fields its typed form
    /// drops, such as a post's `attachment_keys`).
    public func contentObject(_ id: MessageID) throws(StoreError) -> JSONObject? {
        let sealed: String? = try read { db in
            try String.fetchOne(db, cached: "SELECT content_json FROM messages WHERE message_id = ?", arguments: [id.string])
        }
        guard let sealed else { return nil }
        let plain = try sealer.open(sealed, context: id.string)
        return (try? CanonicalJSON.parse(plain))?.objectValue
    }
}
