import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithSync
import Synchronization

/// The SQLite store (``FeedStore``) as a ``SyncFeedSource``: what a ``SyncSession`` requests,
/// serves and ingests on this device.
///
/// - **Who is served.** Only contacts. A contact's Noise static key is their X25519 `dh_key`
///   (the public key on their contact card, spec 2.1), so the allow-list of a ``SecureLink`` is
///   ``isContact(staticKey:)``. A peer whose static key is no contact's current `dh_key` is
///   asked for nothing and sent nothing.
/// - **Requests.** Every followed feed (own feed first) with `have_seq` = the linked head, which
///   the store keeps contiguous from 0, plus the held ranges: signed entries pending ahead of a
///   gap (``FeedStore/heldSequencesAhead(of:)``), so a resumed transfer never re-sends them.
/// - **Serving.** Every followed feed is shared with every contact (contacts relay each other's
///   feeds; content is end-to-end encrypted, so a relay stores what it cannot read opaque).
///   Entries above the peer's `have_seq`, newest first, leaving out what this peer acknowledged in
///   this process; self-audience messages travel as stubs only (``FeedStore/export(feed:forPeer:)``).
///   Priority (spec 8.5): the peer's own feed first, then `key_rotation`/`group_event`, then
///   content, then `tombstone`/`profile_update`.
/// - **Ingest.** One ``FeedStore/ingest(_:decryptor:)`` transaction per batch (the messages of
///   one sealed frame); `ok` when ``IngestOutcome/isAccepted`` (stored, pending ahead of a gap,
///   duplicate, stored for relay), `invalid` otherwise.
/// - **Failures.** Every store failure throws ``SyncSourceError`` (the session stops and reports
///   it); it is never read as "no contacts", "nothing to offer" or "invalid". A feed that holds a
///   self message without its signed stub cannot be served in peer form: it is withheld and
///   reported (``SyncSourceError/feedOnly``, ``SyncSessionReport/feedsWithheld``).
///
/// - **Blobs** (``SyncBlobSource``): wants the blobs referenced by readable content but not held
///   (``FeedStore/missingReferencedBlobs()``); serves held blobs to contacts; stores a received
///   blob (already verified against its hash) with ``FeedStore/putBlob(_:mimeType:limits:nowMillis:)``.
///
/// Acknowledgements are remembered per peer for the lifetime of this object only; a new
/// process relies on the peer's `have_seq` and held ranges instead, which are exact.
public final class StoreSyncSource: SyncFeedSource, SyncBlobSource {
    private let store: FeedStore
    private let decryptor: (any ContentDecryptor)?
    private let acknowledged = Mutex<[SyncPeer: Set<SyncMessageID>]>([:])
    /// Told what each ingest batch stored (the account's ``Account/events()``).
    private let onIngest: (@Sendable (_ entries: [[UInt8]], _ report: IngestReport) -> Void)?

    /// Wraps a store; `decryptor` lets ingest index the content this identity can read.
    public convenience init(store: FeedStore, decryptor: (any ContentDecryptor)? = nil) {
        self.init(store: store, decryptor: decryptor, onIngest: nil)
    }

    init(store: FeedStore, decryptor: (any ContentDecryptor)?, onIngest: (@Sendable ([[UInt8]], IngestReport) -> Void)?) {
        self.store = store
        self.decryptor = decryptor
        self.onIngest = onIngest
    }

    /// The contact whose current `dh_key` is `staticKey`, if any (nil also when the store cannot
    /// be read: the allow-list fails closed). Sync itself uses the throwing lookup.
    public func contact(staticKey: [UInt8]) -> ContactRecord? {
        try? contact(staticKey: staticKey, during: .followedFeeds)
    }

    /// The contact whose current `dh_key` is `staticKey`; a store failure throws (it is not "no contact").
    private func contact(staticKey: [UInt8], during operation: SyncSourceError.Operation) throws(SyncSourceError) -> ContactRecord? {
        guard staticKey.count == 32 else { return nil }
        let contacts = try Self.storeCall(operation) { () throws(StoreError) in try store.contacts() }
        let encoded = Base64URL.encode(staticKey)
        return contacts.first { $0.dhKey == encoded }
    }

    /// Runs one store call, turning its ``StoreError`` into the ``SyncSourceError`` of `operation`.
    private static func storeCall<T>(_ operation: SyncSourceError.Operation, _ body: () throws(StoreError) -> T) throws(SyncSourceError) -> T {
        do {
            return try body()
        } catch {
            throw SyncSourceError(operation, reason: error.description)
        }
    }

    /// The allow-list of a ``SecureLink``: true when `staticKey` is a contact's `dh_key`.
    public func isContact(staticKey: [UInt8]) -> Bool {
        contact(staticKey: staticKey) != nil
    }

    public func followedFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [SyncFeedState] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard try contact(staticKey: peer.staticKey, during: .followedFeeds) != nil else { return [] }
            let feeds = try Self.storeCall(.followedFeeds) { () throws(StoreError) in try store.followedFeeds() }
            var states: [SyncFeedState] = []
            for feed in feeds {
                guard let id = try? SyncFeedID(bytes: feed.feedID.rawBytes) else { continue }
                let held = feed.pendingCount > 0
                    ? try Self.storeCall(.followedFeeds) { () throws(StoreError) in try store.heldSequencesAhead(of: feed.feedID) }
                    : []
                states.append(SyncFeedState(feedID: id, haveSequence: feed.head?.sequence, heldRanges: SyncHeldRanges.ranges(of: held)))
            }
            return states
        }
    }

    public func servableFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [SyncFeedID] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard try contact(staticKey: peer.staticKey, during: .followedFeeds) != nil else { return [] }
            let feeds = try Self.storeCall(.followedFeeds) { () throws(StoreError) in try store.followedFeeds() }
            return feeds.compactMap { try? SyncFeedID(bytes: $0.feedID.rawBytes) }
        }
    }

    public func outgoing(feed: SyncFeedID, above haveSequence: UInt32?, for peer: SyncPeer) async throws(SyncSourceError) -> SyncFeedBatch? {
        try await BlockingWork.run { [self] () throws(SyncSourceError) -> SyncFeedBatch? in
            guard let contact = try contact(staticKey: peer.staticKey, during: .outgoing),
                  let feedID = try? FeedID(rawBytes: feed.bytes)
            else { return nil }
            let followed = try Self.storeCall(.outgoing) { () throws(StoreError) in try store.followedFeeds() }
            guard followed.contains(where: { $0.feedID == feedID }) else { return nil }
            // A missing self stub withholds this feed and says so (not silently); other failures stop the session.
            let entries: [[UInt8]]
            do throws(StoreError) {
                entries = try store.export(feed: feedID, forPeer: true)
            } catch {
                if case .missingSelfStub = error { throw SyncSourceError(.outgoing, reason: error.description, feedOnly: true) }
                throw SyncSourceError(.outgoing, reason: error.description)
            }
            guard !entries.isEmpty else { return nil }
            let acked = acknowledged.withLock { $0[peer] ?? [] }
            let isPeersFeed = contact.feedID == feedID
            // The linked part of a feed is contiguous from 0, so an entry's index is its sequence.
            let first = haveSequence.map { Int($0) + 1 } ?? 0
            var envelopes: [SyncOutgoingEnvelope] = []
            if first < entries.count {
                for index in stride(from: entries.count - 1, through: first, by: -1) {
                    let bytes = entries[index]
                    guard !acked.contains(SyncMessageID(envelope: bytes)) else { continue }
                    envelopes.append(SyncOutgoingEnvelope(
                        sequence: UInt32(index), bytes: bytes,
                        priority: isPeersFeed ? .peerOwnFeed : Self.priority(of: bytes)
                    ))
                }
            }
            return SyncFeedBatch(latestSequence: UInt32(entries.count - 1), envelopes: envelopes)
        }
    }

    public func feedID(of envelope: [UInt8]) -> SyncFeedID? {
        let feedID: FeedID?
        switch try? FeedEntry.parse(envelope) {
        case .envelope(let parsed): feedID = parsed.feedID
        case .stub(let stub): feedID = stub.feedID
        case .foreign(let foreign): feedID = foreign.feedID
        case nil: feedID = nil
        }
        return feedID.flatMap { try? SyncFeedID(bytes: $0.rawBytes) }
    }

    public func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async throws(SyncSourceError) -> [SyncIngestResult] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard try contact(staticKey: peer.staticKey, during: .ingest) != nil else { return messages.map { _ in .invalid } }
            // A failed transaction stored nothing and throws: the session stops without acknowledging.
            let report = try Self.storeCall(.ingest) { () throws(StoreError) in
                try store.ingest(messages.map(\.envelope), decryptor: decryptor)
            }
            onIngest?(messages.map(\.envelope), report)
            return messages.indices.map { index in
                guard index < report.outcomes.count else { return .invalid }
                switch report.outcomes[index] {
                case .duplicate: return .duplicate
                case let outcome where outcome.isAccepted: return .accepted
                default: return .invalid
                }
            }
        }
    }

    public func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async throws(SyncSourceError) {
        acknowledged.withLock { _ = $0[peer, default: []].insert(messageID) }
    }

    // MARK: Blobs

    public func wantedBlobs(from peer: SyncPeer) async -> [SyncBlobID] {
        await BlockingWork.run { [self] () throws(Never) in
            guard isContact(staticKey: peer.staticKey), let hashes = try? store.missingReferencedBlobs() else { return [] }
            return hashes.compactMap(SyncBlobID.init(contentHash:))
        }
    }

    public func blob(_ id: SyncBlobID, for peer: SyncPeer) async -> [UInt8]? {
        await BlockingWork.run { [self] () throws(Never) in
            guard isContact(staticKey: peer.staticKey) else { return nil }
            return try? store.blob(id.description)
        }
    }

    public func storeBlob(_ blob: [UInt8], id: SyncBlobID, from peer: SyncPeer) async -> Bool {
        await BlockingWork.run { [self] () throws(Never) in
            guard isContact(staticKey: peer.staticKey), SyncBlobID(blob: blob) == id else { return false }
            return (try? store.putBlob(blob)) != nil
        }
    }

    /// Adds a finished session to the peer's persisted record (`sync_peer_state`).
    public func recordSession(_ report: SyncSessionReport, peer: SyncPeer) {
        try? store.recordSyncSession(
            peerKey: Base64URL.encode(peer.staticKey),
            outcome: SyncSessionOutcome(
                completed: report.completed, messagesReceived: report.messagesAccepted,
                messagesSent: report.messagesSent, blobsReceived: report.blobsReceived
            )
        )
    }

    /// The persisted record of a peer, if it ever synced with this device.
    public func peerRecord(_ peer: SyncPeer) -> SyncPeerRecord? {
        try? store.syncPeerRecord(peerKey: Base64URL.encode(peer.staticKey))
    }

    /// The spec 8.5 class of an envelope from its `type` (stubs and unparsable entries: content).
    static func priority(of entry: [UInt8]) -> SyncPriority {
        guard let envelope = try? Envelope.parseV1(entry) else { return .content }
        switch envelope.type {
        case "key_rotation", "group_event": return .keyMaterial
        case "tombstone", "profile_update": return .lowUrgency
        default: return .content
        }
    }
}

extension Account {
    /// This account's store as a sync source, decrypting what this identity can read on ingest.
    /// Use it with `identity.dhKey` as the ``SecureLinkConfiguration/localStatic`` key and
    /// ``StoreSyncSource/isContact(staticKey:)`` as the allow-list.
    ///
    /// What its ingest stores is announced on ``events()``. Self messages replicate as signed
    /// stubs: ``SyncAgent/run(link:clock:observer:)`` signs any missing ones first (see
    /// ``signMissingSelfStubs()``).
    public func makeSyncSource() -> StoreSyncSource {
        StoreSyncSource(store: store, decryptor: AccountDecryptor(identity: identity, store: store)) { [weak self] entries, report in
            self?.announceSynced(entries, report: report)
        }
    }

    private static func feed(of entry: [UInt8]) -> FeedID? {
        switch try? FeedEntry.parse(entry) {
        case .envelope(let envelope): envelope.feedID
        case .stub(let stub): stub.feedID
        case .foreign(let foreign): foreign.feedID
        case nil: nil
        }
    }

    /// Emits what a sync ingest batch stored, per feed, and the verified key rotations among it.
    func announceSynced(_ entries: [[UInt8]], report: IngestReport) {
        var stored: [FeedID: [MessageID]] = [:]
        var order: [FeedID] = []
        var rotations: [FeedID: Set<UInt32>] = [:]
        for (entry, outcome) in zip(entries, report.outcomes) {
            guard case .stored(let id, let sequence) = outcome, case .envelope(let envelope)? = try? FeedEntry.parse(entry) else { continue }
            if stored[envelope.feedID] == nil { order.append(envelope.feedID) }
            stored[envelope.feedID, default: []].append(id)
            if envelope.type == "key_rotation" { rotations[envelope.feedID, default: []].insert(sequence) }
        }
        // Entries linked from pending belong to the feeds of this batch (a batch carries one feed
        // in practice); they are announced with the first.
        if !report.promoted.isEmpty, let feed = order.first ?? entries.lazy.compactMap(Self.feed(of:)).first {
            if stored[feed] == nil { order.append(feed) }
            stored[feed, default: []] += report.promoted
        }
        for feed in order { hub.emit(.messagesStored(feed: feed, messages: stored[feed] ?? [])) }
        for (feed, sequences) in rotations {
            let verified = (try? store.keyRotations(feed: feed))?.contains { $0.verified && sequences.contains($0.sequence) } ?? false
            if verified { hub.emit(.keysRotated(feed)) }
        }
    }
}
