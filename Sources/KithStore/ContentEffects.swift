import GRDB
import KithFeed

/// What a linked, readable message changes beyond its own row (spec 5).
///
/// Called inside the ingest transaction, so an effect is durable exactly when its message is.
enum ContentEffects {
    static func apply(_ content: Content, of envelope: Envelope, in db: Database, sealer: ContentSealer) throws {
        switch content {
        case .tombstone(let tombstone):
            // Only the author can retract: the target must be in the same feed (spec 5.7).
            try db.execute(
                sql: "UPDATE messages SET tombstoned = 1, content_json = NULL WHERE message_id = ? AND feed_id = ?",
                arguments: [tombstone.targetMessage.string, envelope.feedID.string]
            )
        default:
            break
        }
    }
}
