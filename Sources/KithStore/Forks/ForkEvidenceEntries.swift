import GRDB
import KithFeed
import KithIdentity

/// The signed entries recorded as fork evidence of one feed (`fork_evidence.conflicting_entry_json`), parsed, one
/// per message id: what a fork switch may adopt.
struct ForkEvidenceEntries {
    struct Entry {
        let entry: SignedEntry
        var id: String { entry.messageID.string }
        var sequence: UInt32 { entry.sequence }
        var previous: String? { entry.previous?.string }
    }

    let entries: [Entry]
    /// The recorded entries by the id of the entry they follow.
    private let byPrevious: [String: [Entry]]

    /// The most evidence rows of one feed a switch reads (the oldest first: the fork a contact asked about comes before
    /// any flood of later conflicting entries).
    static let maxRows = 20_000

    init(entries: [Entry]) {
        self.entries = entries
        byPrevious = Dictionary(grouping: entries.filter { $0.previous != nil }) { $0.previous ?? "" }
    }

    /// Reads the evidence of `feed`, oldest first, at most ``maxRows`` rows and `maxBytes` bytes of entries (a
    /// contact writes them); rows whose bytes do not parse as a signed entry of that feed are skipped (they could never
    /// be adopted).
    static func load(_ db: Database, feed: FeedID, maxBytes: Int) throws -> ForkEvidenceEntries {
        var seen: Set<String> = []
        var entries: [Entry] = []
        var total = 0
        let rows = try Row.fetchCursor(
            db, sql: "SELECT conflicting_message_id, conflicting_entry_json FROM fork_evidence WHERE feed_id = ? ORDER BY id LIMIT ?",
            arguments: [feed.string, maxRows])
        while let row = try rows.next() {
            let id: String = row["conflicting_message_id"]
            guard seen.insert(id).inserted else { continue }
            let bytes = Array((row["conflicting_entry_json"] as String).utf8)
            total += bytes.count
            guard total <= maxBytes else { break }
            guard let parsed = try? FeedEntry.parse(bytes), let signed = SignedEntry(parsed, bytes: bytes),
                  signed.feedID == feed, signed.messageID.string == id else { continue }
            entries.append(Entry(entry: signed))
        }
        return ForkEvidenceEntries(entries: entries)
    }

    /// The entry held at a linked position of `feed`, if any (a message or a stub).
    static func heldID(_ db: Database, feed: FeedID, sequence: UInt32) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT message_id FROM messages WHERE feed_id = ?1 AND sequence = ?2
                UNION ALL SELECT message_id FROM message_stubs WHERE feed_id = ?1 AND sequence = ?2 LIMIT 1
                """,
            arguments: [feed.string, sequence])
    }

    /// Entries that could take the place of a held one: not held, a different entry held at their sequence, and
    /// following the entry held just before them (or first of the feed). Ordered by sequence, then id.
    func choices(_ db: Database, feed: FeedID) throws -> [Entry] {
        var result: [Entry] = []
        for entry in entries {
            guard let held = try Self.heldID(db, feed: feed, sequence: entry.sequence), held != entry.id else { continue }
            if entry.sequence == 0 {
                guard entry.previous == nil else { continue }
            } else {
                guard let previous = entry.previous, try Self.heldID(db, feed: feed, sequence: entry.sequence - 1) == previous else { continue }
            }
            result.append(entry)
        }
        return result.sorted { ($0.sequence, $0.id) < ($1.sequence, $1.id) }
    }

    /// The recorded entry that follows `id` at `sequence + 1`, if one is recorded.
    func successor(of id: String, at sequence: UInt32) -> Entry? {
        byPrevious[id]?.first { $0.sequence == sequence &+ 1 }
    }
}
