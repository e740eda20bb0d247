import Foundation
import GRDB
import KithCanonical
import KithIdentity

/// A scanned compact card whose full card has not arrived yet (docs/FEED-FORMAT.md 11.9).
public struct PendingContactRecord: Sendable, Equatable {
    /// Most pending contacts kept; scanning one more evicts the oldest.
    public static let maximumCount = 256

    /// The compact card as scanned (verified when stored and again when read).
    public let compactCard: CompactContactCard
    /// The local name given at the scan (`--name`), if any.
    public let localName: String?
    /// When it was scanned (Unix seconds).
    public let scannedAt: Int64

    /// The holder's feed.
    public var feedID: FeedID { compactCard.feedID }

    /// A pending contact record.
    public init(compactCard: CompactContactCard, localName: String?, scannedAt: Int64) {
        self.compactCard = compactCard
        self.localName = localName
        self.scannedAt = scannedAt
    }
}

extension FeedStore {
    /// Stores (or replaces) the pending contact of `compact`'s feed, evicting the oldest beyond
    /// ``PendingContactRecord/maximumCount``.
    public func addPendingContact(_ compact: CompactContactCard, localName: String?, scannedAt: Int64) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO pending_contacts(feed_id, compact_card, local_name, scanned_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(feed_id) DO UPDATE SET compact_card = excluded.compact_card,
                        local_name = COALESCE(excluded.local_name, pending_contacts.local_name), scanned_at = excluded.scanned_at
                    """,
                arguments: [compact.feedID.string, Data(compact.encoded), localName, scannedAt])
            try db.execute(
                sql: """
                    DELETE FROM pending_contacts WHERE feed_id NOT IN
                        (SELECT feed_id FROM pending_contacts ORDER BY scanned_at DESC, feed_id LIMIT ?)
                    """,
                arguments: [PendingContactRecord.maximumCount])
        }
    }

    /// The pending contact of `feedID`, if any. A stored row that no longer verifies is reported as damaged.
    public func pendingContact(_ feedID: FeedID) throws(StoreError) -> PendingContactRecord? {
        let row = try read { db in
            try Row.fetchOne(db, sql: "SELECT compact_card, local_name, scanned_at FROM pending_contacts WHERE feed_id = ?", arguments: [feedID.string])
        }
        return try row.map { row throws(StoreError) in try Self.pendingRecord(row) }
    }

    /// The pending contact whose compact card names `dhKey` (32 bytes), if any. Rows are matched on the stored bytes
    /// (constant time) and only a match is verified, so a lookup for a stranger's link key costs no signature check
    /// at all, whatever the number of pending contacts.
    public func pendingContact(dhKey: [UInt8]) throws(StoreError) -> PendingContactRecord? {
        guard dhKey.count == 32 else { return nil }
        let row = try read { db -> Row? in
            let rows = try Row.fetchCursor(db, sql: "SELECT compact_card, local_name, scanned_at FROM pending_contacts ORDER BY scanned_at DESC, feed_id")
            while let row = try rows.next() {
                let bytes: [UInt8] = Array((row["compact_card"] as Data?) ?? Data())
                if let key = CompactContactCard.unverifiedDHKey(of: bytes), ConstantTime.equals(key, dhKey) { return row.copy() }
            }
            return nil
        }
        return try row.map { row throws(StoreError) in try Self.pendingRecord(row) }
    }

    /// Every pending contact, most recently scanned first.
    public func pendingContacts() throws(StoreError) -> [PendingContactRecord] {
        let rows = try read { db in
            try Row.fetchAll(db, sql: "SELECT compact_card, local_name, scanned_at FROM pending_contacts ORDER BY scanned_at DESC, feed_id")
        }
        var records: [PendingContactRecord] = []
        for row in rows { records.append(try Self.pendingRecord(row)) }
        return records
    }

    /// Forgets the pending contact of `feedID`; false when there was none.
    @discardableResult
    public func removePendingContact(_ feedID: FeedID) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM pending_contacts WHERE feed_id = ?", arguments: [feedID.string])
            return db.changesCount > 0
        }
    }

    static func pendingRecord(_ row: Row) throws(StoreError) -> PendingContactRecord {
        let bytes: [UInt8] = Array((row["compact_card"] as Data?) ?? Data())
        do throws(CompactContactCardError) {
            return PendingContactRecord(compactCard: try CompactContactCard.decode(bytes), localName: row["local_name"], scannedAt: row["scanned_at"])
        } catch {
            throw .database("stored pending contact does not verify: \(error)")
        }
    }
}
