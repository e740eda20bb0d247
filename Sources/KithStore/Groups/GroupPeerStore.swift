import Foundation
import GRDB
import KithIdentity

/// A group peer as stored: a member of a shared group who is not a contact, known by the full card this identity
/// checked in an invite exchange (docs/INVITES.md, "Group peers").
public struct GroupPeerRecord: Sendable, Equatable {
    /// Its feed.
    public let feedID: FeedID
    /// Its card's `dh_key` (base64url), the Noise static key of its sync links.
    public let dhKey: String
    /// Its full contact card, as checked when stored.
    public let card: [UInt8]

    /// A record.
    public init(feedID: FeedID, dhKey: String, card: [UInt8]) {
        self.feedID = feedID
        self.dhKey = dhKey
        self.card = card
    }
}

extension GroupStoreAccess {
    /// Most group peers kept; beyond, the oldest go first (after those that share no active group any more).
    public static let maxGroupPeers = 4_096

    /// Keeps `feedID`'s checked card as a group peer (replacing an older one), in the transaction that made it a member
    /// of a shared group, and drops peers that share no active group with this identity any more.
    public func saveGroupPeer(_ feedID: FeedID, dhKey: String, card: [UInt8]) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                sql: """
                    INSERT INTO group_peers(feed_id, dh_key, card, added_at) VALUES (?, ?, ?, ?)
                    ON CONFLICT(feed_id) DO UPDATE SET dh_key = excluded.dh_key, card = excluded.card, added_at = excluded.added_at
                    """,
                arguments: [feedID.string, dhKey, Data(card), now])
            // The new peer is kept even when the commit that makes it a member has not written the member rows yet.
            try db.execute(sql: "DELETE FROM group_peers WHERE feed_id <> ? AND NOT \(FeedStore.sharesActiveGroup)", arguments: [feedID.string])
            try db.execute(
                sql: "DELETE FROM group_peers WHERE feed_id NOT IN (SELECT feed_id FROM group_peers ORDER BY added_at DESC, feed_id LIMIT ?)",
                arguments: [Self.maxGroupPeers])
        }
    }
}

extension FeedStore {
    /// SQL condition on a row of `group_peers`: its feed is a member of an active group.
    static let sharesActiveGroup = """
        EXISTS (SELECT 1 FROM mls_group_members m JOIN mls_groups g ON g.group_id = m.group_id
                WHERE m.feed_id = group_peers.feed_id AND g.status = 'active')
        """

    /// The group peer whose card's `dh_key` is `dhKey` (base64url), while it shares an active group with this
    /// identity; nil otherwise (a removed, departed or exploded group's members lose their sync access).
    public func groupPeer(dhKey: String) throws(StoreError) -> GroupPeerRecord? {
        let row = try read { db in
            try Row.fetchOne(
                db, sql: "SELECT feed_id, dh_key, card FROM group_peers WHERE dh_key = ? AND \(Self.sharesActiveGroup) LIMIT 1",
                arguments: [dhKey])
        }
        guard let row, let feed = try? FeedID(row["feed_id"] as String) else { return nil }
        let card: Data = row["card"]
        return GroupPeerRecord(feedID: feed, dhKey: row["dh_key"], card: [UInt8](card))
    }

    /// The feeds of every member of the active groups `feed` is a member of (the feeds a group peer may exchange).
    public func feedsSharingGroups(with feed: FeedID) throws(StoreError) -> Set<FeedID> {
        let rows = try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT other.feed_id FROM mls_group_members mine
                    JOIN mls_groups g ON g.group_id = mine.group_id AND g.status = 'active'
                    JOIN mls_group_members other ON other.group_id = mine.group_id
                    WHERE mine.feed_id = ?
                    """,
                arguments: [feed.string])
        }
        return Set(rows.compactMap { try? FeedID($0) })
    }
}
