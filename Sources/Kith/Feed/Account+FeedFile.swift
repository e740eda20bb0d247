import Crypto
import KithFeed
import KithIdentity
import KithStore

/// Importing feed files (`kith feed import`), streamed line by line.
extension Account {
    func importFeedFileBlocking(
        _ reader: FeedLineReader, identityKey: Curve25519.Signing.PublicKey?, progress: (IngestProgress) -> Void
    ) throws(KithError) -> FeedFileImport {
        let input = FeedFileInput(reader: reader)
        let key: Curve25519.Signing.PublicKey
        if let identityKey {
            key = identityKey
        } else {
            key = try followedKey(namedBy: input)
        }
        let feed = FeedID(identityKey: key)
        var result = FeedFileImport(feed: feed)
        do throws(StoreError) { try store.follow(identityKey: key) } catch { throw .store(error) }
        let report = try announcingIngest(of: feed) { () throws(KithError) in
            do throws(StoreError) {
                return try store.ingest(streaming: input, decryptor: deferredDecryptor, onlyFeed: feed, progress: progress)
            } catch {
                throw .store(error)
            }
        }
        try processAfterImportBlocking()
        if let error = input.reader.readError { throw .input(.file(path: "the feed file", reason: "reading failed: \(error)")) }
        result.lines = input.linesRead
        result.rejections = input.rejections
        for (number, outcome) in zip(input.ingestedLineNumbers, report.outcomes) {
            switch outcome {
            case .stored: result.stored += 1
            case .pending: result.pending += 1
            case .duplicate: result.duplicates += 1
            case .storedForRelay: result.relayOnly += 1
            case .fork(let id, let sequence):
                result.rejections.record(line: number, sequence: sequence, code: "fork", message: "\(id) conflicts with the stored chain (evidence recorded)")
            case .rejected(let sequence, let error):
                result.rejections.record(line: number, sequence: sequence, error)
            }
        }
        result.linkedFromPending = report.promoted.count
        return result
    }

    /// The key of the followed feed the file's first entry names.
    private func followedKey(namedBy input: FeedFileInput) throws(KithError) -> Curve25519.Signing.PublicKey {
        guard let first = input.peekFirst() else { throw .input(.invalid("the feed file holds no entry")) }
        let named: FeedID?
        do throws(FeedError) { named = try FeedEntry.parse(first.bytes).feedID } catch { throw .feed(error) }
        guard let named else { throw .input(.invalid("the first entry names no feed; pass --key")) }
        let key: Curve25519.Signing.PublicKey?
        do { key = try store.identityKey(of: named) } catch { throw .store(error) }
        guard let key else { throw .input(.invalid("feed \(named) is not a contact or followed feed here; add their card or pass --key")) }
        return key
    }
}

/// The lines of a feed file as ingest takes them (ingest refuses other feeds' lines itself); an
/// over-long line is recorded as refused here, with its line number. A class, because ingest iterates a copy of the
/// sequence while the import reads what it recorded.
final class FeedFileInput: Sequence, IteratorProtocol {
    var reader: FeedLineReader
    private(set) var rejections = FeedFileRejections()
    /// The line number of each line handed to ingest, in order (outcomes come back in that order).
    private(set) var ingestedLineNumbers: [Int] = []
    private(set) var linesRead = 0
    private var peeked: FeedLine?

    init(reader: FeedLineReader) {
        self.reader = reader
    }

    /// The first line, read ahead and handed out again by ``next()``.
    func peekFirst() -> FeedLine? {
        if peeked == nil { peeked = reader.next() }
        return peeked
    }

    func next() -> [UInt8]? {
        while let line = takeLine() {
            linesRead += 1
            if let error = line.lengthError {
                rejections.record(line: line.number, sequence: nil, error)
                continue
            }
            ingestedLineNumbers.append(line.number)
            return line.bytes
        }
        return nil
    }

    private func takeLine() -> FeedLine? {
        if let line = peeked {
            peeked = nil
            return line
        }
        return reader.next()
    }
}

extension Account.Feed {
    /// Imports a feed file into the store, restricted to **one feed**: the feed of `identityKey`,
    /// or, without a key, the followed feed that the file's first entry names.
    ///
    /// Lines are read and committed in transactions of `FeedStore.streamingBatchSize` as they
    /// come, so memory does not grow with the file. Every line of another feed is refused with
    /// `feed_id_mismatch` and nothing of it is stored; an oversized line is refused as
    /// `too_large` without being held. If storage fails, the error is thrown and the batches
    /// already reported by `progress` stay committed (running the import again skips them).
    ///
    /// - Parameters:
    ///   - reader: the file's lines.
    ///   - identityKey: the author's original identity key; nil to take a followed feed's key.
    ///   - progress: called after each committed batch.
    /// - Throws: ``KithError/input(_:)`` when no key is given and the first entry names no
    ///   followed feed; ``KithError/store(_:)`` when storage fails.
    public func importFile(
        _ reader: FeedLineReader,
        identityKey: Curve25519.Signing.PublicKey? = nil,
        progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }
    ) async throws(KithError) -> FeedFileImport {
        try await BlockingWork.run { () throws(KithError) in try account.importFeedFileBlocking(reader, identityKey: identityKey, progress: progress) }
    }

    /// What this identity can read of an envelope (its own messages, its contacts' `contacts`
    /// messages), for `ChainVerifier.init(identityKey:reader:)`: with it, a contact verifies
    /// a rotated feed past its key rotations, which a stranger cannot read.
    ///
    /// The contacts' keys are read from the store once, now; the returned function only decrypts.
    public func contentReader() async -> @Sendable (Envelope) -> [UInt8]? {
        let decryptor = await BlockingWork.run { () throws(Never) in account.decryptor }
        return { envelope in try? decryptor.decrypt(envelope) }
    }
}
