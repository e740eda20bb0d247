import Foundation
import GRDB
import KithFeed

/// Group state inside one store transaction: group records (member state sealed at rest), members, KeyPackages, and the
/// group messages waiting to be processed.
///
/// Handed to the closures of ``FeedStore/withGroupState(_:)`` and, through ``OwnAppendSlot/groups``, to an append, so a
/// group's state advances in the same transaction that stores the message that advanced it. Valid only during that call.
public struct GroupStoreAccess {
    let db: Database
    let sealer: ContentSealer
    let now: Int64
    /// What runs once the transaction commits (``afterCommit(_:)``).
    let commitActions: CommitActions

    /// Largest number of a contact's KeyPackages kept here; older ones are dropped first.
    public static let maxPeerKeyPackages = 8

    // MARK: Records

    /// The group, or nil when this store does not know it. With `loadingState: false` the sealed state is not opened
    /// (``GroupRecord/state`` is empty): for a caller that holds the state of this ``GroupRecord/version``.
    public func group(_ groupID: String, loadingState: Bool = true) throws(StoreError) -> GroupRecord? {
        try StoreError.catching {
            let columns = loadingState
                ? Self.recordColumns
                : "g.group_id, g.group_name, g.epoch, g.status, g.committer, g.explode_at, g.created_at, COALESCE(r.version, g.state_version) AS record_version"
            guard let row = try Row.fetchOne(
                db, cached: "SELECT \(columns) FROM mls_groups g LEFT JOIN mls_group_ratchets r USING (group_id) WHERE g.group_id = ?", arguments: [groupID]
            ) else { return nil }
            return try record(row, loadingState: loadingState)
        }
    }

    /// A group row with its ratchets (when stored apart) and its version: the ratchets' when they are, the row's
    /// otherwise (a whole state written before the split).
    static let recordColumns = "g.*, r.ratchets_blob, COALESCE(r.version, g.state_version) AS record_version"

    /// Runs `action` once the current transaction commits (never if it rolls back): for caches of what it wrote.
    public func afterCommit(_ action: @escaping @Sendable () -> Void) {
        commitActions.add(action)
    }

    /// Active groups whose explosion time (Unix seconds) is at or before `now`.
    public func groupsDue(toExplodeAt now: Int64) throws(StoreError) -> [GroupRecord] {
        try StoreError.catching {
            try Row.fetchAll(
                db,
                cached: """
                    SELECT \(Self.recordColumns) FROM mls_groups g LEFT JOIN mls_group_ratchets r USING (group_id)
                    WHERE g.status = 'active' AND g.explode_at IS NOT NULL AND g.explode_at <= ?
                    """,
                arguments: [now]
            ).map { try record($0) }
        }
    }

    /// Every group, newest first.
    public func groups() throws(StoreError) -> [GroupRecord] {
        try StoreError.catching {
            try Row.fetchAll(
                db, cached: "SELECT \(Self.recordColumns) FROM mls_groups g LEFT JOIN mls_group_ratchets r USING (group_id) ORDER BY g.created_at DESC, g.group_id"
            ).map { try record($0) }
        }
    }

    /// Inserts or replaces a group and, when `members` is given, its member list (the epoch each joined at is kept for
    /// members already listed). Its ratchets are replaced by ``GroupRecord/ratchets`` (deleted when empty). Returns the
    /// record's new version.
    @discardableResult
    public func save(_ group: GroupRecord, members: [String]?) throws(StoreError) -> Int64 {
        try StoreError.catching {
            let blob: [UInt8] = group.state.isEmpty ? [] : sealer.sealBinary(group.state, context: "mls_state:" + group.groupID)
            let name = group.name.map { sealer.seal(Array($0.utf8), context: "group_name:" + group.groupID) }
            let rowVersion = try Int64.fetchOne(
                db,
                cached: """
                    INSERT INTO mls_groups(group_id, group_name, epoch, mls_state_blob, created_at, status, committer, explode_at, updated_at, state_version)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
                    ON CONFLICT(group_id) DO UPDATE SET group_name = excluded.group_name, epoch = excluded.epoch,
                        mls_state_blob = excluded.mls_state_blob, status = excluded.status, committer = excluded.committer,
                        explode_at = excluded.explode_at, updated_at = excluded.updated_at, state_version = mls_groups.state_version + 1
                    RETURNING state_version
                    """,
                arguments: [group.groupID, name, Int64(clamping: group.epoch), Data(blob), group.createdAt, group.status.rawValue, group.committer,
                            group.explodeAt, now]
            ) ?? 0
            let version: Int64
            if group.ratchets.isEmpty {
                // The previous version may be the ratchets' (higher than the row's): the next one stays above both.
                let previous = try Int64.fetchOne(db, cached: "SELECT version FROM mls_group_ratchets WHERE group_id = ?", arguments: [group.groupID])
                try db.execute(cached: "DELETE FROM mls_group_ratchets WHERE group_id = ?", arguments: [group.groupID])
                version = max(rowVersion, (previous ?? 0) + 1)
                if version != rowVersion {
                    try db.execute(cached: "UPDATE mls_groups SET state_version = ? WHERE group_id = ?", arguments: [version, group.groupID])
                }
            } else {
                version = try Int64.fetchOne(
                    db,
                    cached: """
                        INSERT INTO mls_group_ratchets(group_id, ratchets_blob, version) VALUES (?1, ?2, ?3)
                        ON CONFLICT(group_id) DO UPDATE SET ratchets_blob = excluded.ratchets_blob,
                            version = MAX(excluded.version, mls_group_ratchets.version + 1)
                        RETURNING version
                        """,
                    arguments: [group.groupID, Data(sealer.sealBinary(group.ratchets, context: "mls_ratchets:" + group.groupID)), rowVersion]
                ) ?? rowVersion
            }
            guard let members else { return version }
            let known = Set(try String.fetchAll(db, cached: "SELECT feed_id FROM mls_group_members WHERE group_id = ?", arguments: [group.groupID]))
            let current = Set(members)
            for gone in known.subtracting(current) {
                try db.execute(cached: "DELETE FROM mls_group_members WHERE group_id = ? AND feed_id = ?", arguments: [group.groupID, gone])
            }
            for joined in current.subtracting(known) {
                try db.execute(
                    cached: "INSERT INTO mls_group_members(group_id, feed_id, joined_at_epoch) VALUES (?, ?, ?)",
                    arguments: [group.groupID, joined, Int64(clamping: group.epoch)]
                )
            }
            return version
        }
    }

    /// Replaces only a group's message-key ratchets, leaving the rest of its state as saved. Returns the group's new
    /// version, or nil (nothing written) when its ratchets are not stored apart (the ``GroupRecord/ratchets`` of its
    /// last ``save(_:members:)`` were empty): the caller then saves the whole record.
    public func saveRatchets(_ ratchets: [UInt8], of groupID: String) throws(StoreError) -> Int64? {
        try StoreError.catching {
            try Int64.fetchOne(
                db,
                cached: "UPDATE mls_group_ratchets SET ratchets_blob = ?, version = version + 1 WHERE group_id = ? RETURNING version",
                arguments: [Data(sealer.sealBinary(ratchets, context: "mls_ratchets:" + groupID)), groupID]
            )
        }
    }

    /// The member feeds of a group, with the epoch each joined at.
    public func members(of groupID: String) throws(StoreError) -> [(feedID: String, joinedAtEpoch: UInt64)] {
        try StoreError.catching {
            try Row.fetchAll(
                db, cached: "SELECT feed_id, joined_at_epoch FROM mls_group_members WHERE group_id = ? ORDER BY joined_at_epoch, feed_id",
                arguments: [groupID]
            ).map { ($0["feed_id"], UInt64(clamping: $0["joined_at_epoch"] as Int64)) }
        }
    }

    private func record(_ row: Row, loadingState: Bool = true) throws -> GroupRecord {
        let id: String = row["group_id"]
        let blob: Data = loadingState ? (row["mls_state_blob"] ?? Data()) : Data()
        let state = blob.isEmpty ? [] : try sealer.openBinary(Array(blob), context: "mls_state:" + id)
        let sealedRatchets: Data? = loadingState ? row["ratchets_blob"] : nil
        let ratchets = try sealedRatchets.map { try sealer.openBinary(Array($0), context: "mls_ratchets:" + id) } ?? []
        let name = try (row["group_name"] as String?).map { String(decoding: try sealer.open($0, context: "group_name:" + id), as: UTF8.self) }
        var record = GroupRecord(
            groupID: id, name: name, epoch: UInt64(clamping: row["epoch"] as Int64), state: state,
            status: GroupRecord.Status(rawValue: row["status"]) ?? .active, committer: row["committer"], explodeAt: row["explode_at"],
            createdAt: row["created_at"]
        )
        record.ratchets = ratchets
        record.version = row["record_version"] ?? 0
        return record
    }

    /// The feeds among `feeds` that this store follows (one query, whatever the count).
    public func followed(among feeds: [String]) throws(StoreError) -> Set<String> {
        try StoreError.catching {
            guard !feeds.isEmpty else { return [] }
            var found: Set<String> = []
            for chunk in stride(from: 0, to: feeds.count, by: 500).map({ Array(feeds[$0..<min($0 + 500, feeds.count)]) }) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
                found.formUnion(try String.fetchAll(db, sql: "SELECT feed_id FROM feeds WHERE feed_id IN (\(marks))", arguments: StatementArguments(chunk)))
            }
            return found
        }
    }

    // MARK: Messages

    /// The linked messages of `groupID`'s audience not yet processed, in feed and sequence order, without those held
    /// (``hold(_:group:epoch:)``) for an epoch after `epoch`.
    public func inbox(of groupID: String, atEpoch epoch: UInt64 = .max) throws(StoreError) -> [GroupInboxEntry] {
        try StoreError.catching {
            try Row.fetchAll(
                db,
                cached: """
                    SELECT message_id, feed_id, sequence, type, envelope_json FROM messages
                    WHERE audience = ?1 AND content_json IS NULL AND audience LIKE 'group:%' AND tombstoned = 0
                      AND message_id NOT IN (SELECT message_id FROM mls_processed)
                      AND message_id NOT IN (SELECT message_id FROM mls_held WHERE group_id = ?2 AND epoch > ?3)
                    ORDER BY feed_id, sequence
                    """,
                arguments: ["group:" + groupID, groupID, Int64(clamping: epoch)]
            ).compactMap { row in
                guard let envelope = try? Envelope.parseV1(Array((row["envelope_json"] as String).utf8)),
                      let bytes = try? envelope.contentBytes() else { return nil }
                return GroupInboxEntry(
                    messageID: row["message_id"], feedID: row["feed_id"], sequence: UInt32(clamping: row["sequence"] as Int64), type: row["type"],
                    contentBytes: bytes, envelope: envelope
                )
            }
        }
    }

    /// Ids of the groups known here that have unprocessed messages of their audience, not counting messages held for
    /// an epoch the group has not reached (messages of groups this identity is not in are relayed, never scanned).
    public func groupsWithInbox() throws(StoreError) -> [String] {
        try StoreError.catching {
            try String.fetchAll(
                db,
                cached: """
                    SELECT g.group_id FROM mls_groups g
                    WHERE EXISTS (
                        SELECT 1 FROM messages m
                        WHERE m.audience = 'group:' || g.group_id AND m.content_json IS NULL AND m.audience LIKE 'group:%'
                          AND m.tombstoned = 0 AND m.message_id NOT IN (SELECT message_id FROM mls_processed)
                          AND m.message_id NOT IN (SELECT h.message_id FROM mls_held h WHERE h.group_id = g.group_id AND h.epoch > g.epoch))
                    """
            )
        }
    }

    /// Records that a message of `groupID` waits for `epoch`: ``inbox(of:atEpoch:)`` skips it until then.
    public func hold(_ messageID: String, group groupID: String, epoch: UInt64) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: "INSERT OR REPLACE INTO mls_held(message_id, group_id, epoch) VALUES (?, ?, ?)",
                arguments: [messageID, groupID, Int64(clamping: epoch)]
            )
        }
    }

    /// Decrypted direct `group_event` messages to `local` (Welcomes) not yet processed: (message id, author, plaintext).
    public func welcomes(to local: String) throws(StoreError) -> [(messageID: String, author: String, plaintext: [UInt8])] {
        try StoreError.catching {
            try Row.fetchAll(
                db,
                cached: """
                    SELECT message_id, feed_id, content_json FROM messages
                    WHERE audience = ? AND type = 'group_event' AND content_json IS NOT NULL
                      AND message_id NOT IN (SELECT message_id FROM mls_processed)
                    ORDER BY received_at, feed_id, sequence
                    """,
                arguments: ["direct:" + local]
            ).compactMap { row in
                let id: String = row["message_id"]
                guard let plain = try? sealer.open(row["content_json"], context: id) else { return nil }
                return (id, row["feed_id"], plain)
            }
        }
    }

    /// Stores the decrypted content of a group message (sealed) and applies its effects (`content` is `plaintext`
    /// parsed; nil for content without effects).
    public func storeContent(_ plaintext: [UInt8], of envelope: Envelope, content: Content?) throws(StoreError) {
        try StoreError.catching {
            let id = envelope.messageID.string
            try db.execute(cached: "UPDATE messages SET content_json = ? WHERE message_id = ?", arguments: [sealer.seal(plaintext, context: id), id])
            if let content { try ContentEffects.apply(content, of: envelope, in: db, sealer: sealer) }
        }
    }

    /// Records that a message was handled (`outcome`: `stored`, `stale`, or the reason it was refused).
    public func markProcessed(_ messageID: String, group groupID: String, outcome: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: "INSERT OR REPLACE INTO mls_processed(message_id, group_id, outcome, processed_at) VALUES (?, ?, ?, ?)",
                arguments: [messageID, groupID, String(outcome.prefix(500)), now]
            )
            try db.execute(cached: "DELETE FROM mls_held WHERE message_id = ?", arguments: [messageID])
        }
    }

    /// Clears the decrypted content of every message of a group's audience (explosion): envelopes stay for chain
    /// integrity, their content goes.
    public func clearContent(of groupID: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(cached: "UPDATE messages SET content_json = NULL WHERE audience = ?", arguments: ["group:" + groupID])
            try db.execute(cached: "DELETE FROM mls_group_members WHERE group_id = ?", arguments: [groupID])
            try db.execute(cached: "DELETE FROM mls_held WHERE group_id = ?", arguments: [groupID])
        }
    }

    /// Runs `body` in a savepoint: what it wrote stays when it returns, and is undone when it throws (the error is
    /// returned, not rethrown).
    public func attempt(_ body: () throws -> Void) throws(StoreError) -> (any Error)? {
        try StoreError.catching {
            var failure: (any Error)?
            try db.inSavepoint {
                do {
                    try body()
                    return .commit
                } catch {
                    failure = error
                    return .rollback
                }
            }
            return failure
        }
    }

    // MARK: Outbox

    /// Queues a Welcome for `recipient` (sent as a direct message after the commit's transaction).
    public func queueWelcome(_ message: [UInt8], group groupID: String, recipient: String, tree: GroupTreeOffer? = nil) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: """
                    INSERT OR REPLACE INTO mls_outbox(group_id, recipient_feed_id, mls_message, created_at, tree_blob, tree_key)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [groupID, recipient, Data(message), now, tree?.blob, tree.map { sealer.seal(Array($0.key.utf8), context: "mls_group_tree:" + groupID) }]
            )
        }
    }

    /// The queued Welcomes: (group, recipient, MLS message bytes, where the tree is when it travels apart).
    public func queuedWelcomes() throws(StoreError) -> [(groupID: String, recipient: String, message: [UInt8], tree: GroupTreeOffer?)] {
        try StoreError.catching {
            try Row.fetchAll(db, cached: "SELECT group_id, recipient_feed_id, mls_message, tree_blob, tree_key FROM mls_outbox ORDER BY created_at").map {
                let groupID: String = $0["group_id"]
                var tree: GroupTreeOffer?
                if let blob = $0["tree_blob"] as String?, let sealed = $0["tree_key"] as String? {
                    tree = GroupTreeOffer(groupID: groupID, blob: blob, key: String(decoding: try sealer.open(sealed, context: "mls_group_tree:" + groupID), as: UTF8.self))
                }
                return (groupID, $0["recipient_feed_id"], Array($0["mls_message"] as Data), tree)
            }
        }
    }

    /// Stores an encrypted blob (a ratchet tree sent out of band) in this transaction; returns its content hash.
    public func putBlob(_ blob: [UInt8]) throws(StoreError) -> String {
        try StoreError.catching {
            try FeedStore.insertBlob(blob, mimeType: nil, limits: BlobLimits(), nowMillis: now, in: db)
        }
    }

    /// The encrypted blob with this content hash, if held.
    public func blob(_ contentHash: String) throws(StoreError) -> [UInt8]? {
        try StoreError.catching {
            try Data.fetchOne(db, cached: "SELECT data FROM blobs WHERE content_hash = ?", arguments: [contentHash]).map { Array($0) }
        }
    }

    /// Most tree offers kept per author: a contact names any group id it likes, and only a Welcome it sends later
    /// uses one, so older offers give way (a committer adding this identity to many groups at once re-sends).
    public static let maxGroupTreesPerAuthor = 8

    /// Keeps where `author` (a committer) put a group's ratchet tree for this identity (the latest offer wins; at
    /// most ``maxGroupTreesPerAuthor`` per author, the oldest dropped).
    public func keepGroupTree(_ offer: GroupTreeOffer, from author: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: """
                    INSERT OR REPLACE INTO mls_group_trees(group_id, author_feed_id, blob_hash, key_sealed, received_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [offer.groupID, author, offer.blob, sealer.seal(Array(offer.key.utf8), context: "mls_group_tree:" + offer.groupID), now]
            )
            try db.execute(
                cached: """
                    DELETE FROM mls_group_trees WHERE author_feed_id = ?1 AND rowid NOT IN (
                        SELECT rowid FROM mls_group_trees WHERE author_feed_id = ?1 ORDER BY received_at DESC, rowid DESC LIMIT ?2)
                    """,
                arguments: [author, Self.maxGroupTreesPerAuthor]
            )
        }
    }

    /// Where `author` put a group's ratchet tree for this identity, if it said.
    public func groupTree(of groupID: String, from author: String) throws(StoreError) -> GroupTreeOffer? {
        try StoreError.catching {
            guard let row = try Row.fetchOne(
                db, cached: "SELECT blob_hash, key_sealed FROM mls_group_trees WHERE group_id = ? AND author_feed_id = ?", arguments: [groupID, author]
            ) else { return nil }
            let key = try sealer.open(row["key_sealed"], context: "mls_group_tree:" + groupID)
            return GroupTreeOffer(groupID: groupID, blob: row["blob_hash"], key: String(decoding: key, as: UTF8.self))
        }
    }

    /// Removes a sent Welcome from the queue.
    public func dequeueWelcome(group groupID: String, recipient: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(cached: "DELETE FROM mls_outbox WHERE group_id = ? AND recipient_feed_id = ?", arguments: [groupID, recipient])
        }
    }

    // MARK: KeyPackages

    /// Keeps a KeyPackage this identity hands `recipient`, with its private keys sealed; `automatic` marks one made by
    /// an automatic offer (see ``automaticKeyOfferDue(to:now:)``).
    public func saveOwnKeyPackage(reference: String, recipient: String, keyPackage: [UInt8], secrets: [UInt8], automatic: Bool = false) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: """
                    INSERT OR REPLACE INTO mls_own_key_packages(ref, recipient_feed_id, key_package, secrets_sealed, created_at, automatic)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [reference, recipient, Data(keyPackage), sealer.seal(secrets, context: "mls_key_package:" + reference), now, automatic]
            )
        }
    }

    /// One of this identity's KeyPackages by reference: (KeyPackage bytes, private keys, recipient).
    public func ownKeyPackage(reference: String) throws(StoreError) -> (keyPackage: [UInt8], secrets: [UInt8], recipient: String)? {
        try StoreError.catching {
            guard let row = try Row.fetchOne(db, cached: "SELECT * FROM mls_own_key_packages WHERE ref = ?", arguments: [reference]) else { return nil }
            let secrets = try sealer.open(row["secrets_sealed"], context: "mls_key_package:" + reference)
            return (Array(row["key_package"] as Data), secrets, row["recipient_feed_id"])
        }
    }

    /// Deletes a used KeyPackage and its private keys.
    public func deleteOwnKeyPackage(reference: String) throws(StoreError) {
        try StoreError.catching {
            try db.execute(cached: "DELETE FROM mls_own_key_packages WHERE ref = ?", arguments: [reference])
        }
    }

    /// Keeps a contact's KeyPackage (at most ``maxPeerKeyPackages`` per contact, oldest dropped first).
    public func savePeerKeyPackage(reference: String, peer: String, keyPackage: [UInt8]) throws(StoreError) {
        try StoreError.catching {
            try db.execute(
                cached: "INSERT OR IGNORE INTO mls_peer_key_packages(ref, peer_feed_id, key_package, received_at) VALUES (?, ?, ?, ?)",
                arguments: [reference, peer, Data(keyPackage), now]
            )
            try db.execute(
                cached: """
                    DELETE FROM mls_peer_key_packages WHERE peer_feed_id = ?1 AND ref NOT IN (
                        SELECT ref FROM mls_peer_key_packages WHERE peer_feed_id = ?1 ORDER BY received_at DESC, rowid DESC LIMIT ?2)
                    """,
                arguments: [peer, Self.maxPeerKeyPackages]
            )
        }
    }

    /// Takes (returns and deletes) the oldest KeyPackage `peer` handed this identity.
    public func takePeerKeyPackage(of peer: String) throws(StoreError) -> [UInt8]? {
        try StoreError.catching {
            guard let row = try Row.fetchOne(
                db, cached: "SELECT ref, key_package FROM mls_peer_key_packages WHERE peer_feed_id = ? ORDER BY received_at, rowid LIMIT 1", arguments: [peer]
            ) else { return nil }
            try db.execute(cached: "DELETE FROM mls_peer_key_packages WHERE ref = ?", arguments: [row["ref"] as String])
            return Array(row["key_package"] as Data)
        }
    }

    /// How many of `peer`'s KeyPackages this identity holds.
    public func peerKeyPackageCount(of peer: String) throws(StoreError) -> Int {
        try StoreError.catching {
            try Int.fetchOne(db, cached: "SELECT COUNT(*) FROM mls_peer_key_packages WHERE peer_feed_id = ?", arguments: [peer]) ?? 0
        }
    }
}

extension FeedStore {
    /// Runs `body` in one write transaction with access to the group state.
    public func withGroupState<T>(_ body: (GroupStoreAccess) throws -> T) throws(StoreError) -> T {
        try write(withCommitActions: { db, actions in try body(GroupStoreAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: actions)) })
    }

    /// Reads group state (no writes).
    public func readGroupState<T>(_ body: (GroupStoreAccess) throws -> T) throws(StoreError) -> T {
        // A read commits nothing: what it asks to run after a commit never runs.
        try read { db in try body(GroupStoreAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: CommitActions())) }
    }

    /// A group's messages (of its audience), oldest first, decrypted where this identity read them.
    public func groupMessages(_ groupID: String, limit: Int = 100) throws(StoreError) -> [StoredMessage] {
        try read { db in
            let rows = try Row.fetchAll(
                db,
                cached: """
                    SELECT * FROM (
                        SELECT message_id, feed_id, sequence, timestamp, type, audience, content_json, tombstoned, received_at FROM messages
                        WHERE audience = ? AND \(WithheldContent.shownCondition) ORDER BY timestamp DESC, received_at DESC LIMIT ?
                    ) ORDER BY timestamp, received_at
                    """,
                arguments: ["group:" + groupID, limit]
            )
            return rows.compactMap { self.storedMessage($0) }
        }
    }
}

extension OwnAppendSlot {
    /// Group state in the append's transaction.
    public var groups: GroupStoreAccess { directState.groups }
}

extension DirectSessionAccess {
    /// Group state in the same transaction (a KeyPackage handed over in a direct message is kept with it).
    public var groups: GroupStoreAccess { GroupStoreAccess(db: db, sealer: sealer, now: now, commitActions: commitActions) }
}
