import GRDB
import KithIdentity

extension FeedStore {
    /// The text of the card a contact was last added from (nil for an unknown feed or a contact added before cards
    /// were kept). Read again with ``ContactCard/init(text:)`` to use what the card carries beyond the stored keys.
    public func contactCardText(of feed: FeedID) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT card FROM contacts WHERE feed_id = ?", arguments: [feed.string]) }
    }
}
