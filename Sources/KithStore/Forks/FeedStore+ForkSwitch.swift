import GRDB
import KithFeed
import KithIdentity

/// Switching a contact's feed copy to the other branch of a recorded fork (docs/CONTINUITY.md section 3).
extension FeedStore {
    /// The recorded entries of `feed` that a switch could adopt now: each follows the entry held just before it and
    /// differs from the one held at its sequence. Ordered by sequence.
    public func forkSwitchChoices(of feed: FeedID) throws(StoreError) -> [ForkSwitchChoice] {
        try read { db in
            try ForkEvidenceEntries.load(db, feed: feed, maxBytes: limits.maxForkSwitchBytes).choices(db, feed: feed).map { ForkSwitchChoice(messageID: $0.id, sequence: $0.sequence) }
        }
    }

    /// Makes the copy of a contact's `feed` follow the branch of a recorded conflicting entry, in one transaction.
    ///
    /// The held entries from that entry's sequence on are removed and their effects undone (``DroppedBranch``); each
    /// is kept as fork evidence against what now holds its sequence (reason `same_sequence`, or `switched_away`
    /// above the new head), so the switch is visible and can be switched back. The chosen entry is then linked as
    /// ingest links it (verified with the keys in force without the dropped branch, its effects applied), followed by
    /// the recorded entries of its branch that follow it. The head moves to the new branch's last entry: the next
    /// sync asks for what follows it, and entries of the dropped branch that arrive again become fork evidence.
    /// The evidence rows the switch writes are marked acknowledged at `now` (the user chose); rows whose
    /// conflicting entry is now held are removed.
    ///
    /// - Parameters:
    ///   - feed: the contact's feed whose copy switches branch.
    ///   - messageID: the recorded entry to adopt; nil picks the only one ``forkSwitchChoices(of:)`` gives.
    ///   - resettingDirectChannel: true to drop direct and one-time messages to this device with the branch and forget
    ///     the direct channel with the contact (``DirectChannelReset``) instead of refusing the switch.
    ///   - decryptor: reads what this identity may read of the adopted entries (as for an ingest).
    ///   - now: the acknowledgement time (seconds since 1970).
    /// - Throws: ``StoreError/forkSwitchRefused(_:)`` when the switch is not possible (nothing changed), or a
    ///   storage error (the transaction rolled back: nothing changed).
    public func switchFork(
        of feed: FeedID, to messageID: String?, resettingDirectChannel: Bool = false, decryptor: (any ContentDecryptor)?, now: Int64
    ) throws(StoreError) -> ForkSwitchReport {
        decryptor?.prepare(for: nil)
        return try write { db in
            guard let isLocal = try Bool.fetchOne(db, sql: "SELECT is_local FROM feeds WHERE feed_id = ?", arguments: [feed.string]) else {
                throw StoreError.unknownFeed(feed.string)
            }
            guard !isLocal else { throw StoreError.forkSwitchRefused(.ownFeed) }
            let evidence = try ForkEvidenceEntries.load(db, feed: feed, maxBytes: limits.maxForkSwitchBytes)
            let target = try Self.chooseForkEntry(messageID, of: feed, evidence: evidence, in: db)
            let dropped = try DroppedBranch.load(db, feed: feed, from: target.sequence, maxBytes: limits.maxForkSwitchBytes)
            let local = Set(try String.fetchAll(db, sql: "SELECT feed_id FROM feeds WHERE is_local = 1"))
            let irreversible = try dropped.irreversible(db, sealer: sealer, local: local, resettingDirectChannel: resettingDirectChannel)
            guard irreversible.isEmpty else { throw StoreError.forkSwitchRefused(.irreversibleEntries(irreversible)) }
            let channelReset = resettingDirectChannel && dropped.reachesThisDevice(local: local)
            let rotationUndone = try dropped.remove(db, sealer: sealer)
            if channelReset { try DirectChannelReset.reset(peer: feed.string, in: db, sealer: sealer) }
            let adoption = try adopt(target, evidence: evidence, in: db, decryptor: decryptor)
            try Self.recordSwitchedEvidence(dropped, adopted: adoption.adopted, in: db, now: now)
            let head = try Self.head(db, feed.string)
            try db.execute(
                sql: "UPDATE contacts SET last_seen_seq = ? WHERE feed_id = ?", arguments: [head.map { Int64($0.sequence) } ?? -1, feed.string])
            logger.notice("fork switched", metadata: ["feed": "\(feed.string)", "sequence": "\(target.sequence)", "dropped": "\(dropped.items.count)"])
            return ForkSwitchReport(
                feedID: feed, sequence: target.sequence, adoptedMessageIDs: adoption.linked, droppedMessageIDs: dropped.items.map(\.id),
                headSequence: head?.sequence, keysChanged: rotationUndone || adoption.rotationLinked)
        }
    }

    /// The entry to adopt: the named one (checked) or the only choice.
    private static func chooseForkEntry(
        _ messageID: String?, of feed: FeedID, evidence: ForkEvidenceEntries, in db: Database
    ) throws -> ForkEvidenceEntries.Entry {
        let choices = try evidence.choices(db, feed: feed)
        let listed = choices.map { ForkSwitchChoice(messageID: $0.id, sequence: $0.sequence) }
        guard let messageID else {
            guard let only = choices.first else { throw StoreError.forkSwitchRefused(.noFork(feed: feed.string)) }
            guard choices.count == 1 else { throw StoreError.forkSwitchRefused(.ambiguous(feed: feed.string, choices: listed)) }
            return only
        }
        if let chosen = choices.first(where: { $0.id == messageID }) { return chosen }
        guard let recorded = evidence.entries.first(where: { $0.id == messageID }) else {
            throw StoreError.forkSwitchRefused(.unknownEntry(feed: feed.string, messageID: messageID))
        }
        if try ForkEvidenceEntries.heldID(db, feed: feed, sequence: recorded.sequence) == messageID {
            throw StoreError.forkSwitchRefused(.alreadyHeld(messageID: messageID))
        }
        throw StoreError.forkSwitchRefused(.notOnHeldChain(messageID: messageID, sequence: recorded.sequence, choices: listed))
    }

    /// Links `target`, then the recorded entries of its branch that follow it, through the ingest's chain logic.
    private func adopt(
        _ target: ForkEvidenceEntries.Entry, evidence: ForkEvidenceEntries, in db: Database, decryptor: (any ContentDecryptor)?
    ) throws -> (adopted: [String], linked: [String], rotationLinked: Bool) {
        var adopted: [String] = []
        let report = try IngestSession.run(in: db, store: self, decryptor: decryptor, expecting: 1) { session in
            var next: ForkEvidenceEntries.Entry? = target
            while let entry = next {
                let outcome = try session.ingestSigned(entry.entry)
                guard case .stored = outcome else {
                    guard entry.id == target.id else { break }  // a later recorded entry that does not link stays evidence
                    let reason: String
                    if case .rejected(_, let error) = outcome { reason = error.description } else { reason = "\(outcome)" }
                    throw StoreError.forkSwitchRefused(.adoptedEntryRejected(messageID: entry.id, reason: reason))
                }
                adopted.append(entry.id)
                next = evidence.successor(of: entry.id, at: entry.sequence)
            }
        }
        let linked = report.linked.map(\.messageID.string)
        let rotationLinked = try report.linked.contains { linked in
            guard linked.type == ChainRules.keyRotationType else { return false }
            return try Bool.fetchOne(db, sql: "SELECT verified FROM key_rotations WHERE message_id = ?", arguments: [linked.messageID.string]) ?? false
        }
        return (adopted, adopted + linked.filter { !adopted.contains($0) }, rotationLinked)
    }

    /// Keeps every dropped entry as evidence against what now holds its sequence, and removes the evidence whose
    /// conflicting entry is now held.
    private static func recordSwitchedEvidence(_ dropped: DroppedBranch, adopted: [String], in db: Database, now: Int64) throws {
        let feed = dropped.feed
        for id in adopted {
            try db.execute(sql: "DELETE FROM fork_evidence WHERE feed_id = ? AND conflicting_message_id = ?", arguments: [feed.string, id])
        }
        let head = try Self.head(db, feed.string)
        let detected = nowMillis()
        for item in dropped.items {
            guard let bytes = item.bytes else { continue }
            let held = try ForkEvidenceEntries.heldID(db, feed: feed, sequence: item.sequence)
            guard let kept = held ?? head?.messageID.string else { continue }
            try db.execute(
                sql: """
                    INSERT INTO fork_evidence(feed_id, sequence, kept_message_id, conflicting_message_id, conflicting_entry_json, reason, detected_at, acknowledged_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(kept_message_id, conflicting_message_id) DO UPDATE SET acknowledged_at = excluded.acknowledged_at
                    """,
                arguments: [feed.string, item.sequence, kept, item.id, bytes, held == nil ? "switched_away" : "same_sequence", detected, now])
        }
        try db.execute(sql: "UPDATE feeds SET forked = 1 WHERE feed_id = ?", arguments: [feed.string])
    }
}
