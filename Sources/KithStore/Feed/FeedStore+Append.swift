import GRDB
import KithFeed
import KithIdentity

/// The slot a new entry of the local feed takes, handed to the closure of
/// ``FeedStore/appendOwn(feed:_:)`` while the write lock is held.
public struct OwnAppendSlot {
    /// The sequence the entry must carry (the linked head's + 1, or 0).
    public let sequence: UInt32
    /// The id of the linked head the entry must name as `previous` (nil at sequence 0).
    public let previous: MessageID?
    /// Direct-message state in the same transaction (a ratchet step commits with its message).
    public let directState: DirectSessionAccess
    /// One-time pools in the same transaction (a peer key is marked used with the message encrypted to it).
    public let oneTimePools: OneTimePoolAccess
}

/// What the closure of ``FeedStore/appendOwn(feed:_:)`` made for its slot.
public struct OwnAppendEntry {
    /// The signed envelope's canonical bytes.
    public var entry: [UInt8]
    /// Opens the entry's content for the store (the author's known plaintext).
    public var decryptor: any ContentDecryptor
    /// The signed stub that replicates a self message in its place, saved with it.
    public var selfStub: SelfStub?

    /// Bundles a made entry.
    public init(entry: [UInt8], decryptor: any ContentDecryptor, selfStub: SelfStub? = nil) {
        self.entry = entry
        self.decryptor = decryptor
        self.selfStub = selfStub
    }
}

extension FeedStore {
    /// Appends one entry to the local feed with its sequence assigned in the same transaction.
    ///
    /// Rule (docs/FEED-FORMAT.md 7, "Appending to one's own feed"): the head read, the sealing and
    /// signing by `make`, the ingest and the self stub happen in one `BEGIN IMMEDIATE` transaction.
    /// SQLite grants its single write lock at `BEGIN IMMEDIATE`, before the head is read, so two
    /// connections — two processes on one home, or two stores in one process — never sign the
    /// same sequence: the second waits (busy timeout) and sees the first one's entry as its head.
    /// If `make` or the ingest throws, nothing is written.
    ///
    /// - Throws: what `make` throws, unchanged; ``StoreError`` for the store (a rejected entry is
    ///   ``StoreError/feed(_:)``).
    ///
    /// `make` runs while the write lock is held: it must not call back into this store (use the
    /// slot's ``OwnAppendSlot/directState`` for direct-message state) and should be quick.
    public func appendOwn<Failure: Error>(
        feed: FeedID, _ make: (OwnAppendSlot) throws(Failure) -> OwnAppendEntry
    ) throws(OwnAppendError<Failure>) -> IngestReport {
        // What `make` threw, kept typed: GRDB's transaction closures rethrow untyped.
        var failure: Failure?
        let actions = CommitActions()
        let written: IngestReport
        do {
            written = try database.writeWithoutTransaction { db in
                var report = IngestReport()
                try db.inTransaction(.immediate) {
                    let head = try Self.head(db, feed.string)
                    let slot = OwnAppendSlot(
                        sequence: head.map { $0.sequence + 1 } ?? 0, previous: head?.messageID,
                        directState: DirectSessionAccess(db: db, sealer: sealer, now: Self.nowMillis(), commitActions: actions),
                        oneTimePools: OneTimePoolAccess(db: db, sealer: sealer, now: Self.nowMillis())
                    )
                    let made: OwnAppendEntry
                    do throws(Failure) {
                        made = try make(slot)
                    } catch {
                        failure = error
                        return .rollback
                    }
                    report = try IngestSession.run(in: db, store: self, decryptor: made.decryptor, expecting: 1) { session in
                        try session.ingest(contentsOf: try session.prepare([made.entry][...]))
                    }
                    if case .rejected(_, let error)? = report.outcomes.first { throw StoreError.feed(error) }
                    if let stub = made.selfStub {
                        try db.execute(
                            cached: "INSERT OR REPLACE INTO own_self_stubs(message_id, entry_json) VALUES (?, ?)",
                            arguments: [stub.messageID.string, String(decoding: stub.canonicalBytes, as: UTF8.self)]
                        )
                    }
                    return .commit
                }
                return report
            }
        } catch {
            if let failure { throw .entry(failure) }
            if let error = error as? StoreError { throw .store(error) }
            // The transaction's own failure: SQLite (GRDB's DatabaseError) or ingest.
            throw .store(.database("\(error)"))
        }
        if let failure { throw .entry(failure) }
        actions.run()
        return written
    }
}

/// Why ``FeedStore/appendOwn(feed:_:)`` wrote nothing: the caller's entry builder failed (its
/// own typed error), or the store did.
public enum OwnAppendError<Failure: Error>: Error {
    /// The entry builder threw; the transaction was rolled back.
    case entry(Failure)
    /// The store failed (a rule of the chain, or SQLite); nothing was written.
    case store(StoreError)
}
