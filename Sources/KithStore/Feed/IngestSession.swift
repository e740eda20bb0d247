import Crypto
import GRDB
import KithCanonical
import KithFeed
import KithIdentity

/// The chain logic of one ingest transaction (see ``FeedStore`` for the rules).
struct IngestSession {
    struct FeedState {
        /// The keys in force at each sequence (``ChainRules`` decides with them).
        var keys: FeedKeyHistory
        var head: FeedHead?
        /// Whether entries may be held ahead of a gap (then linking checks them).
        var hasPending: Bool

        /// What checking signatures ahead needs of this state.
        var keyState: FeedKeyState {
            FeedKeyState(key: keys.original, hasRotations: keys.hasRotations, next: head.map { $0.sequence &+ 1 } ?? 0)
        }
    }

    let db: Database
    let store: FeedStore
    let decryptor: (any ContentDecryptor)?
    var report = IngestReport()
    var feeds: [String: FeedState] = [:]
    let now = FeedStore.nowMillis()
    /// The `messages` insert, prepared once per batch (the hot statement of a sync).
    private var insertMessage: MessageInsert?
    /// Feeds (and the relay store, key "") that received later-version entries in this
    /// transaction: ``finish()`` keeps them within their bounds.
    private var unauthenticatedTouched: Set<String> = []

    init(db: Database, store: FeedStore, decryptor: (any ContentDecryptor)?) {
        self.db = db
        self.store = store
        self.decryptor = decryptor
    }

    /// Runs the chain logic of one ingest transaction in `db`: `body` hands the session its lines
    /// (``ingest(contentsOf:)``), then ``finish()`` records the feeds' new heads.
    static func run(
        in db: Database, store: FeedStore, decryptor: (any ContentDecryptor)?, expecting count: Int,
        _ body: (inout IngestSession) throws -> Void
    ) throws -> IngestReport {
        var session = IngestSession(db: db, store: store, decryptor: decryptor)
        session.report.outcomes.reserveCapacity(count)
        try body(&session)
        try session.finish()
        return session.report
    }

    /// Links prepared lines in order, one outcome each.
    mutating func ingest(contentsOf lines: [PreparedLine]) throws {
        for line in lines { report.outcomes.append(try ingest(line)) }
    }

    /// Ends the batch: records each feed's new head as the contact's `last_seen_seq`.
    func finish() throws {
        if !unauthenticatedTouched.isEmpty {
            try UnauthenticatedBounds.enforce(store.limits, feeds: unauthenticatedTouched.filter { !$0.isEmpty }.sorted(), in: db)
        }
        for (feed, state) in feeds {
            guard let head = state.head else { continue }
            try db.execute(
                cached: "UPDATE contacts SET last_seen_seq = ? WHERE feed_id = ? AND last_seen_seq < ?",
                arguments: [head.sequence, feed, head.sequence]
            )
        }
    }

    /// How many lines ``prepare(_:)`` takes at a time: enough for the signature checks to run back
    /// to back, few enough for their parsed entries to stay in the CPU caches until linked.
    static let preparedSlice = 512

    /// Parses every line of a slice, then checks ahead the signatures the chain logic will need
    /// (``PreparedLine/checkSignatures(_:feed:)``) with the feeds' states as this transaction sees them.
    mutating func prepare(_ lines: ArraySlice<[UInt8]>) throws -> [PreparedLine] {
        var prepared = PreparedLine.parse(lines)
        try PreparedLine.checkSignatures(&prepared) { feedID in try state(feedID)?.keyState }
        return prepared
    }

    mutating func ingest(_ line: PreparedLine) throws -> IngestOutcome {
        let entry: FeedEntry
        switch line.parsed {
        case .success(let parsed): entry = parsed
        case .failure(let error): return .rejected(sequence: nil, error)
        }
        let bytes = line.bytes
        switch entry {
        case .envelope(let envelope):
            return try ingestSigned(.envelope(envelope), signatureValid: line.signatureValid)
        case .stub(let stub):
            return try ingestSigned(.stub(stub, bytes: bytes), signatureValid: line.signatureValid)
        case .foreign(let foreign):
            try db.execute(
                cached: "INSERT OR IGNORE INTO foreign_envelopes(message_id, feed_id, sequence, version, envelope_json, received_at) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [foreign.messageID.string, foreign.feedID?.string, foreign.sequence.map { Int64($0) }, foreign.version,
                            String(decoding: bytes, as: UTF8.self), now]
            )
            let inserted = db.changesCount > 0
            unauthenticatedTouched.insert(foreign.feedID?.string ?? "")
            if let feed = foreign.feedID, let sequence = foreign.sequence, try state(feed) != nil {
                try placeForeign(feed: feed, sequence: sequence, id: foreign.messageID, bytes: bytes)
            }
            return inserted ? .storedForRelay(foreign.messageID) : .duplicate(foreign.messageID)
        }
    }

    // MARK: Signed entries (envelopes and self stubs)

    /// - Parameter signatureValid: the signature checked ahead with the feed's identity key, if it was.
    mutating func ingestSigned(_ entry: SignedEntry, signatureValid: Bool? = nil) throws -> IngestOutcome {
        let id = entry.messageID
        let sequence = entry.sequence
        guard let feed = try state(entry.feedID) else {
            return .rejected(sequence: sequence, .unknownFeed(entry.feedID.string))
        }
        let next: UInt32 = feed.head.map { $0.sequence &+ 1 } ?? 0
        let held = sequence < next ? try slot(entry.feedID, sequence) : nil
        // The structural rule shared with `kith feed verify` (docs section 7).
        let placement = ChainRules.place(
            sequence: sequence, previous: entry.previous, id: id, isEnvelope: entry.isEnvelope,
            head: feed.head.map { (sequence: $0.sequence, messageID: $0.messageID) },
            held: held.map { (id: $0.id, isSelfStub: $0.reason == "self") }
        )
        // Cheap duplicate checks first: an id already held was verified when it was stored.
        if placement == .duplicate { return .duplicate(id) }
        if case .ahead = placement, feed.hasPending, try isPending(id, sequence, kind: entry.kind) { return .duplicate(id) }
        do throws(FeedError) {
            if !feed.keys.hasRotations, let signatureValid {
                // Checked ahead with the original key, the key ChainRules picks for every sequence here.
                guard signatureValid else { throw FeedError.badSignature }
            } else {
                try entry.verify(keys: feed.keys)
            }
        } catch {
            return .rejected(sequence: sequence, error)
        }

        switch placement {
        case .duplicate:
            return .duplicate(id)
        case .upgradeSelfStub:
            guard case .envelope(let full) = entry else { return .duplicate(id) }
            // A full envelope for a position held as a self stub (the author's own device): upgrade it.
            // The position is already linked, so the head does not move (it may be far above).
            try db.execute(cached: "DELETE FROM message_stubs WHERE feed_id = ? AND sequence = ?", arguments: [full.feedID.string, sequence])
            try insertRow(full)
            return .stored(id, sequence: sequence)
        case .conflictsWithHeld(let kept):
            try recordFork(entry.feedID, sequence, kept: kept, conflicting: id, bytes: entry.canonicalBytes, reason: "same_sequence")
            return .fork(id, sequence: sequence)
        case .brokenLink(let head):
            try recordFork(entry.feedID, next &- 1, kept: head, conflicting: id, bytes: entry.canonicalBytes, reason: "previous_mismatch")
            return .fork(id, sequence: sequence)
        case .link:
            do {
                try link(entry)
            } catch let error as FeedError {
                return .rejected(sequence: sequence, error)
            }
            // Only `hold` sets `hasPending`, so a feed without held entries has nothing to promote.
            if feed.hasPending { try promote(entry.feedID) }
            return .stored(id, sequence: sequence)
        case .ahead, .behind:
            break
        }
        // Ahead of a gap: check it against pending neighbours, then hold it.
        for row in try pendingRows(entry.feedID, sequence &+ 1) where row.isSigned {
            if let claimed = row.previous, claimed != id.string {
                try recordFork(entry.feedID, sequence, kept: claimed, conflicting: id, bytes: entry.canonicalBytes, reason: "pending_previous_mismatch")
            }
        }
        if sequence > 0, let previous = entry.previous {
            for row in try pendingRows(entry.feedID, sequence - 1) where row.id != previous.string && row.isSigned {
                try recordFork(entry.feedID, sequence - 1, kept: previous.string, conflicting: try MessageID(row.id), bytes: Array(row.json.utf8), reason: "pending_previous_mismatch")
            }
        }
        // The new entry may anchor a held later-version envelope just above the head.
        return try hold(entry.feedID, sequence, id: id, previous: entry.previous, kind: entry.kind, bytes: entry.canonicalBytes)
    }

    // MARK: Later-version envelopes

    /// Gives a later-version envelope its chain position when its feed is followed: it is held
    /// until the next v1 message's signed `previous` anchors it (docs/FEED-FORMAT.md 3.3).
    mutating func placeForeign(feed feedID: FeedID, sequence: UInt32, id: MessageID, bytes: [UInt8]) throws {
        if try slot(feedID, sequence) != nil || isPending(id, sequence, kind: "foreign") { return }
        _ = try hold(feedID, sequence, id: id, previous: nil, kind: "foreign", bytes: bytes)
    }

    // MARK: Pending entries

    /// Holds an entry ahead of a gap, then links whatever now follows the head.
    ///
    /// Signed entries are bounded per feed (`pending_limit`); later-version entries (`foreign`)
    /// are not counted against them and have their own bound, enforced oldest first when the
    /// transaction ends (``UnauthenticatedBounds``), so they can never crowd signed entries out.
    mutating func hold(_ feedID: FeedID, _ sequence: UInt32, id: MessageID, previous: MessageID?, kind: String, bytes: [UInt8]) throws -> IngestOutcome {
        if kind == "foreign" {
            unauthenticatedTouched.insert(feedID.string)
        } else if try signedPendingCount(feedID) >= store.limits.maxPendingPerFeed {
            return .rejected(sequence: sequence, .pendingLimit(feedID.string))
        }
        try db.execute(
            cached: "INSERT INTO pending_entries(message_id, feed_id, sequence, previous, kind, entry_json, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            arguments: [id.string, feedID.string, sequence, previous?.string, kind, String(decoding: bytes, as: UTF8.self), now]
        )
        feeds[feedID.string]?.hasPending = true
        try promote(feedID)
        if try slot(feedID, sequence)?.id == id { return .stored(id, sequence: sequence) }
        return .pending(id, sequence: sequence)
    }

    func isPending(_ id: MessageID, _ sequence: UInt32, kind: String) throws -> Bool {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT 1 FROM pending_entries WHERE message_id = ? AND sequence = ? AND kind = ?"),
            arguments: [id.string, sequence, kind]
        ) != nil
    }

    // MARK: Linking

    /// Links pending entries that now follow the head, oldest first.
    mutating func promote(_ feedID: FeedID) throws {
        while let feed = try state(feedID), feed.hasPending {
            let next: UInt32 = feed.head.map { $0.sequence &+ 1 } ?? 0
            let rows = try pendingRows(feedID, next)
            if rows.isEmpty { return }
            let expectedPrevious = feed.head?.messageID.string
            var chosen: PendingRow?
            for row in rows where row.isSigned {
                if row.previous == expectedPrevious { chosen = row } else if let head = feed.head {
                    try recordFork(feedID, head.sequence, kept: head.messageID, conflicting: try MessageID(row.id), bytes: Array(row.json.utf8), reason: "previous_mismatch")
                    try deletePending(row)
                }
            }
            if chosen == nil {
                let anchors = try pendingRows(feedID, next &+ 1).filter(\.isSigned)
                chosen = rows.first { row in !row.isSigned && anchors.contains { $0.previous == row.id } }
            }
            guard let row = chosen else { return }
            try deletePending(row)
            let id = try MessageID(row.id)
            if row.isSigned {
                let bytes = Array(row.json.utf8)
                guard let entry = SignedEntry(try FeedEntry.parse(bytes), bytes: bytes) else { return }
                do {
                    try link(entry)
                } catch is FeedError {
                    return  // not expected: content never throws here (withheld instead); the gap stays
                }
            } else {
                try db.execute(
                    cached: "INSERT INTO message_stubs(feed_id, sequence, message_id, reason, received_at) VALUES (?, ?, ?, ?, ?)",
                    arguments: [feedID.string, next, row.id, row.kind, now]
                )
                feeds[feedID.string]?.head = FeedHead(sequence: next, messageID: id)
            }
            report.promoted.append(id)
            for other in rows where other.id != row.id && other.isSigned {
                try recordFork(feedID, next, kept: id.string, conflicting: try MessageID(other.id), bytes: Array(other.json.utf8), reason: "same_sequence")
                try deletePending(other)
            }
        }
    }

    /// Links a verified signed entry at the head.
    mutating func link(_ entry: SignedEntry) throws {
        switch entry {
        case .envelope(let envelope):
            try insertLinked(envelope)
        case .stub(let stub, let bytes):
            try db.execute(
                cached: "INSERT INTO message_stubs(feed_id, sequence, message_id, reason, entry_json, received_at) VALUES (?, ?, ?, 'self', ?, ?)",
                arguments: [stub.feedID.string, stub.sequence, stub.messageID.string, String(decoding: bytes, as: UTF8.self), now]
            )
            feeds[stub.feedID.string]?.head = FeedHead(sequence: stub.sequence, messageID: stub.messageID)
        }
    }

    /// Inserts a verified envelope at the head and makes it the feed's head.
    mutating func insertLinked(_ envelope: Envelope) throws {
        try insertRow(envelope)
        feeds[envelope.feedID.string]?.head = FeedHead(sequence: envelope.sequence, messageID: envelope.messageID)
    }

    /// Inserts the row of a verified envelope whose position is linked (at the head, or a held
    /// stub being upgraded): decrypts what this identity may read, seals it, applies its effects.
    /// Never moves the head.
    ///
    /// Content that cannot be shown never blocks the chain (docs section 7 rules 8–9): an unknown
    /// type is not decrypted, and readable content that breaks a rule (or whose type differs from
    /// the envelope's) is not kept; either way the row is stored without content and withheld.
    mutating func insertRow(_ envelope: Envelope) throws {
        var sealed: String?
        var content: Content?
        var withheld: (WithheldContent, code: String)?
        if !Content.isKnownType(envelope.type) {
            withheld = (.unknownType, "unknown_type")
        } else if let decryptor, let plain = try? decryptor.decrypt(envelope) {
            do throws(FeedError) {
                content = try Content.parse(plain, envelopeType: envelope.type)
                sealed = store.sealer.seal(plain, context: envelope.messageID.string)
            } catch {
                withheld = (.invalidContent, error.code)
            }
        }
        let insert = try insertMessage ?? MessageInsert(db)
        insertMessage = insert
        try insert.execute(envelope, sealed: sealed, receivedAt: now)
        report.linked.append(LinkedEnvelope(feedID: envelope.feedID, messageID: envelope.messageID, sequence: envelope.sequence, type: envelope.type))
        if let withheld { try WithheldContent.record(withheld.0, envelope, code: withheld.code, in: db, now: now) }
        if let content { try ContentEffects.apply(content, of: envelope, in: db, sealer: store.sealer) }
        if envelope.type == ChainRules.keyRotationType, var state = feeds[envelope.feedID.string] {
            // The same rule the verifier applies (ContentEffects recorded the verified key in `feed_keys`).
            ChainRules.learn(from: envelope, content: content, into: &state.keys)
            feeds[envelope.feedID.string] = state
        }
    }

    // MARK: Queries

    struct PendingRow {
        let id: String
        let sequence: UInt32
        let previous: String?
        let kind: String
        let json: String

        /// Envelopes and self stubs carry a signed `previous`; later-version envelopes do not.
        var isSigned: Bool { kind == "envelope" || kind == "self" }
    }

    mutating func state(_ feedID: FeedID) throws -> FeedState? {
        if let cached = feeds[feedID.string] { return cached }
        guard let state = try Self.loadState(db, feedID) else { return nil }
        feeds[feedID.string] = state
        return state
    }

    /// Reads a followed feed's state; nil when the feed is not followed.
    static func loadState(_ db: Database, _ feedID: FeedID) throws -> FeedState? {
        guard let text = try String.fetchOne(db, cached: "SELECT identity_key_pub FROM feeds WHERE feed_id = ?", arguments: [feedID.string]),
              let key = try? PublicKeys.identityKey(storedBase64URL: text) else { return nil }
        return FeedState(
            keys: try keyHistory(db, feedID, original: key),
            head: try FeedStore.head(db, feedID.string),
            hasPending: try Int.fetchOne(db, cached: "SELECT 1 FROM pending_entries WHERE feed_id = ? LIMIT 1", arguments: [feedID.string]) != nil
        )
    }

    /// The feed's key history as stored: verified `feed_keys` rows (rotations, keys confirmed in
    /// person) and the linked `key_rotation` announcements still unreadable here.
    static func keyHistory(_ db: Database, _ feedID: FeedID, original: Curve25519.Signing.PublicKey) throws -> FeedKeyHistory {
        var keys = FeedKeyHistory(original: original)
        for row in try Row.fetchAll(db, cached: "SELECT from_sequence, identity_key_pub FROM feed_keys WHERE feed_id = ? AND verified = 1", arguments: [feedID.string]) {
            guard let key = try? PublicKeys.identityKey(storedBase64URL: row["identity_key_pub"] as String) else { continue }
            keys.adopt(key, from: UInt32(clamping: row["from_sequence"] as Int64))
        }
        let unreadable = try Int64.fetchAll(
            db, cached: "SELECT sequence FROM messages WHERE feed_id = ? AND type = ? AND content_json IS NULL", arguments: [feedID.string, ChainRules.keyRotationType]
        )
        for sequence in unreadable { keys.noteUnreadableRotation(at: UInt32(clamping: sequence)) }
        return keys
    }

    /// The entry held at a linked position: a full message (`reason` nil) or a stub (`self`, `foreign`, `pruned`).
    func slot(_ feedID: FeedID, _ sequence: UInt32) throws -> (id: MessageID, reason: String?)? {
        if let id = try String.fetchOne(db.cachedStatement(sql: "SELECT message_id FROM messages WHERE feed_id = ? AND sequence = ?"), arguments: [feedID.string, sequence]) {
            return (try MessageID(id), nil)
        }
        if let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT message_id, reason FROM message_stubs WHERE feed_id = ? AND sequence = ?"), arguments: [feedID.string, sequence]) {
            return (try MessageID(row["message_id"] as String), row["reason"] as String)
        }
        return nil
    }


    func pendingRows(_ feedID: FeedID, _ sequence: UInt32) throws -> [PendingRow] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT message_id, previous, kind, entry_json FROM pending_entries WHERE feed_id = ? AND sequence = ?"),
            arguments: [feedID.string, sequence]
        ).map { PendingRow(id: $0["message_id"], sequence: sequence, previous: $0["previous"], kind: $0["kind"], json: $0["entry_json"]) }
    }

    /// Signed entries (envelopes, self stubs) held ahead of a gap for the feed.
    func signedPendingCount(_ feedID: FeedID) throws -> Int {
        try Int.fetchOne(
            db.cachedStatement(sql: "SELECT COUNT(*) FROM pending_entries WHERE feed_id = ? AND kind IN ('envelope', 'self')"), arguments: [feedID.string]
        ) ?? 0
    }

    func deletePending(_ row: PendingRow) throws {
        try db.execute(cached: "DELETE FROM pending_entries WHERE message_id = ? AND sequence = ? AND kind = ?", arguments: [row.id, row.sequence, row.kind])
    }

    func recordFork(_ feedID: FeedID, _ sequence: UInt32, kept: MessageID, conflicting: MessageID, bytes: [UInt8], reason: String) throws {
        try recordFork(feedID, sequence, kept: kept.string, conflicting: conflicting, bytes: bytes, reason: reason)
    }

    func recordFork(_ feedID: FeedID, _ sequence: UInt32, kept: String, conflicting: MessageID, bytes: [UInt8], reason: String) throws {
        try db.execute(
            cached: """
                INSERT OR IGNORE INTO fork_evidence(feed_id, sequence, kept_message_id, conflicting_message_id, conflicting_entry_json, reason, detected_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [feedID.string, sequence, kept, conflicting.string, String(decoding: bytes, as: UTF8.self), reason, now]
        )
        try db.execute(cached: "UPDATE feeds SET forked = 1 WHERE feed_id = ?", arguments: [feedID.string])
        store.logger.warning("fork evidence recorded", metadata: ["feed": "\(feedID.string)", "sequence": "\(sequence)", "reason": "\(reason)"])
    }
}
