import GRDB
import KithFeed

/// Why a linked message's content is withheld from every reader (docs/FEED-FORMAT.md, section 7
/// rules 8–9): the envelope is authenticated, so it is stored, linked, exported and relayed like
/// any other, but its content is never shown and its effects are never applied.
///
/// Rows live in `withheld_messages` (migration `v5-withheld`); messages without a row are shown.
enum WithheldContent: String, Sendable {
    /// The readable content broke a rule of its type, or its `type` differs from the envelope's.
    case invalidContent = "invalid_content"
    /// The envelope's type is not one this version knows: never decrypted (spec 10.2).
    case unknownType = "unknown_type"

    /// The SQL condition (on `messages`, unaliased) that keeps only shown messages.
    static let shownCondition = "message_id NOT IN (SELECT message_id FROM withheld_messages)"

    /// Records that `envelope`'s content is withheld; `code` is a reason code, never content.
    static func record(_ state: WithheldContent, _ envelope: Envelope, code: String, in db: Database, now: Int64) throws {
        try db.execute(
            cached: "INSERT OR IGNORE INTO withheld_messages(message_id, feed_id, state, reason, recorded_at) VALUES (?, ?, ?, ?, ?)",
            arguments: [envelope.messageID.string, envelope.feedID.string, state.rawValue, code, now]
        )
    }
}

extension Schema {
    /// Authenticated messages whose content is never shown (``WithheldContent``). `reason` holds a
    /// reason code only (no content).
    static let withheldTables = """
        CREATE TABLE withheld_messages (
            message_id TEXT PRIMARY KEY,
            feed_id TEXT NOT NULL,
            state TEXT NOT NULL,
            reason TEXT NOT NULL,
            recorded_at INTEGER NOT NULL
        );
        """
}
