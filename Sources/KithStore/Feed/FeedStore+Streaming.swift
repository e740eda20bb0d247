import Dispatch
import GRDB
import KithFeed
import KithIdentity
import Synchronization

extension FeedStore {
    /// How many entries a streamed ingest commits per transaction unless told otherwise.
    public static let streamingBatchSize = 10_000

    /// Ingests a long run of entries (a feed import, a large backlog) as consecutive transactions
    /// of `batchSize` entries, checking the signatures of each batch while the previous one is
    /// written and committed.
    ///
    /// The chain rules and outcomes are those of ``ingest(_:decryptor:)``; entries may span
    /// batches in any order (an entry ahead of a gap is held until a later batch fills it). Each
    /// batch is durable once `progress` has reported it. If a batch fails, the error is thrown and
    /// the batches reported before it stay committed; nothing of the failed one is stored.
    ///
    /// The signature checks run on the calling thread and the database work on the store's
    /// writer queue, so the time the disk takes to sync a commit is spent checking the next batch.
    ///
    /// - Parameters:
    ///   - lines: the entries, one canonical line each.
    ///   - batchSize: entries per transaction (at least 1).
    ///   - decryptor: lets ingest index the content this identity can read.
    ///   - onlyFeed: refuse every line that is not an entry of this feed (`feed_id_mismatch`, or
    ///     `missing_field` for a later-version line naming no feed); nothing of it is stored.
    ///   - progress: called on the calling thread after each batch commits.
    /// - Returns: one outcome per input entry, in input order; a zero-byte line is not an entry
    ///   (``FeedLine/isEntry(_:)``), so it is skipped and gets no outcome.
    public func ingest<Lines: Sequence>(
        streaming lines: Lines,
        batchSize: Int = streamingBatchSize,
        decryptor: (any ContentDecryptor)? = nil,
        onlyFeed: FeedID? = nil,
        progress: (IngestProgress) -> Void = { _ in }
    ) throws(StoreError) -> IngestReport where Lines.Element == [UInt8] {
        let size = max(1, batchSize)
        var input = lines.makeIterator()
        var feeds: [String: FeedKeyState?] = [:]
        var report = IngestReport()
        var done = IngestProgress()
        var inFlight: BatchCommit?

        func collect(_ commit: BatchCommit) throws(StoreError) {
            record(try commit.wait())
        }

        func record(_ batch: IngestReport) {
            report.outcomes.append(contentsOf: batch.outcomes)
            report.promoted.append(contentsOf: batch.promoted)
            report.linked.append(contentsOf: batch.linked)
            done.batches += 1
            done.committed += batch.outcomes.count
            let accepted = batch.acceptedCount
            done.accepted += accepted
            done.refused += batch.outcomes.count - accepted
            progress(done)
        }

        while true {
            var batch: [[UInt8]] = []
            batch.reserveCapacity(size)
            // A zero-byte line is not an entry (FeedLine.isEntry): skipped, no outcome.
            while batch.count < size, let line = input.next() {
                if FeedLine.isEntry(line) { batch.append(line) }
            }
            if batch.isEmpty { break }
            var prepared = PreparedLine.parse(batch[...])
            if let onlyFeed { prepared = prepared.map { $0.restricted(to: onlyFeed) } }
            // A feed seen for the first time is read once (waiting for the batch in flight, if any).
            try PreparedLine.checkSignatures(&prepared) { (feedID: FeedID) throws(StoreError) -> FeedKeyState? in
                if let known = feeds[feedID.string] { return known }
                let state = try keyState(of: feedID)
                feeds[feedID.string] = state
                return state
            }
            if let decryptor {
                decryptor.prepare(for: prepared.compactMap { line in
                    if case .success(.envelope(let envelope)) = line.parsed { envelope } else { nil }
                })
            }
            if let inFlight { try collect(inFlight) }
            inFlight = nil
            if batch.count < size {
                // The input is exhausted: nothing left to check while this batch commits, so it commits here (no
                // hand-over to the writer queue and back, which a one-entry import would mostly consist of).
                let lines = prepared
                record(try write { db in
                    try IngestSession.run(in: db, store: self, decryptor: decryptor, expecting: lines.count) { try $0.ingest(contentsOf: lines) }
                })
                break
            }
            inFlight = BatchCommit(store: self, lines: prepared, decryptor: decryptor)
        }
        if let inFlight { try collect(inFlight) }
        return report
    }

    /// What checking signatures ahead needs of a feed, nil when it is not followed.
    func keyState(of feedID: FeedID) throws(StoreError) -> FeedKeyState? {
        try read { db in try IngestSession.loadState(db, feedID)?.keyState }
    }
}

/// One batch of a streamed ingest, written and committed on the store's writer queue.
private final class BatchCommit: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private let result = Mutex<Result<IngestReport, StoreError>?>(nil)
    /// Held here too, so the parsed entries are freed on the calling thread that allocated them
    /// (freeing them on the writer queue makes the allocator hand memory between threads).
    private let lines: [PreparedLine]

    /// Starts the transaction.
    init(store: FeedStore, lines: [PreparedLine], decryptor: (any ContentDecryptor)?) {
        self.lines = lines
        store.database.asyncWrite({ db in
            try IngestSession.run(in: db, store: store, decryptor: decryptor, expecting: lines.count) { try $0.ingest(contentsOf: lines) }
        }, completion: { [self] _, outcome in
            result.withLock { slot in
                slot = outcome.mapError { error in (error as? StoreError) ?? .database("\(error)") }
            }
            finished.signal()
        })
    }

    /// Waits for the commit, then returns the batch's report or throws its error.
    func wait() throws(StoreError) -> IngestReport {
        finished.wait()
        guard let outcome = result.withLock({ $0 }) else { throw .database("a streamed ingest batch ended without a result") }
        return try outcome.get()
    }
}
