import GRDB
import KithIdentity

extension FeedStore {
    /// The author's timestamp of the newest linked message of `type` in a feed, if any.
    public func latestTimestamp(feed: FeedID, type: String) throws(StoreError) -> Int64? {
        try read { db in
            try Int64.fetchOne(db, cached: "SELECT MAX(timestamp) FROM messages WHERE feed_id = ? AND type = ?", arguments: [feed.string, type])
        }
    }

    /// The author's timestamp of the oldest message held of a feed, if any.
    public func earliestTimestamp(feed: FeedID) throws(StoreError) -> Int64? {
        try read { db in
            try Int64.fetchOne(db, cached: "SELECT MIN(timestamp) FROM messages WHERE feed_id = ?", arguments: [feed.string])
        }
    }
}
