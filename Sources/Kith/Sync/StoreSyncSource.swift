import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithSync
import Synchronization

/// The SQLite store (`FeedStore`) as a `SyncFeedSource`: what a `SyncSession` requests,
/// serves and ingests on this device.
///
/// - **Who is served.** Contacts, and group peers. A contact's Noise static key is their X25519
///   `dh_key` (the public key on their contact card, spec 2.1), or their immediately previous one while the grace
///   of their latest rotation is open (``RotationSyncGrace``, docs/sync.md "After a key rotation"). A group peer is a member of an
///   active group shared with this identity who is not a contact, known by the full card checked
///   in an invite exchange (docs/INVITES.md, "Group peers"). The allow-list of a `SecureLink` is
///   ``isSyncPeer(staticKey:)``. A peer whose static key is neither is asked for nothing and sent
///   nothing. A group peer is asked for, sent and may deliver only the feeds of members of the
///   groups it shares with this identity, never the rest of what this device follows (which
///   would show it this identity's contacts).
/// - **Requests.** Every followed feed (own feed first) with `have_seq` = the linked head, which
///   the store keeps contiguous from 0, plus the held ranges: signed entries pending ahead of a
///   gap, so a resumed transfer never re-sends them. All feeds are read at once
///   (`FeedStore.replicationStates()`: a fixed number of statements, whatever the feed count).
/// - **Serving.** Every followed feed is shared with every contact (contacts relay each other's
///   feeds; content is end-to-end encrypted, so a relay stores what it cannot read opaque).
///   Entries above the peer's `have_seq`, newest first, leaving out what this peer acknowledged in
///   this process; self-audience messages travel as stubs only. Only that delta is read
///   (`FeedStore.entries(of:above:limit:)`, through the `(feed_id, sequence)` indexes).
///   Priority (spec 8.5), from the envelope type recorded at ingest (no envelope is parsed): the
///   peer's own feed first, then `key_rotation`/`group_event`, then content, then
///   `tombstone`/`profile_update`.
/// - **Per session.** The peer's contact record and the followed feeds are read once, when the
///   session starts (``followedFeeds(for:)``, its first call), not on every call.
/// - **Ingest.** One `FeedStore.ingest(_:decryptor:)` transaction per batch (the messages of
///   one sealed frame); `ok` when `IngestOutcome.isAccepted` (stored, pending ahead of a gap,
///   duplicate, stored for relay), `invalid` otherwise.
/// - **Failures.** Every store failure throws `SyncSourceError` (the session stops and reports
///   it); it is never read as "no contacts", "nothing to offer" or "invalid". A feed that holds a
///   self message without its signed stub cannot be served in peer form: it is withheld and
///   reported (`SyncSourceError.feedOnly`, `SyncSessionReport.feedsWithheld`).
///
/// - **Blobs** (`SyncBlobSource`): wants the blobs referenced by readable content but not held
///   (`FeedStore.missingReferencedBlobs()`); serves held blobs to contacts; stores a received
///   blob (already verified against its hash) with `FeedStore.putBlob(_:mimeType:limits:nowMillis:)`.
///
/// Acknowledgements are remembered per peer for the lifetime of this object only; a new
/// process relies on the peer's `have_seq` and held ranges instead, which are exact.
public final class StoreSyncSource: SyncFeedSource, SyncBlobSource {
    private let store: FeedStore
    private let decryptor: (any ContentDecryptor)?
    private let acknowledged = Mutex<[SyncPeer: Set<SyncMessageID>]>([:])
    /// Per peer, what its current session read once: who the peer is (nil: neither a contact nor
    /// a group peer) and the feeds it may exchange. Refreshed by ``followedFeeds(for:)``, the first
    /// call of every session; the other calls read it instead of the contacts table.
    private let sessions = Mutex<[SyncPeer: SessionView]>([:])
    /// Entries read per store call while gathering a feed's delta.
    private let entryPage: Int
    /// Told what each ingest batch stored (the account's ``Account/events()``).
    private let onIngest: (@Sendable (_ entries: [[UInt8]], _ report: IngestReport) -> Void)?
    /// The current time, Unix seconds: whether a contact's rotation grace is still open (``RotationSyncGrace``).
    private let now: @Sendable () -> Int64

    /// What one session of a peer reads once.
    private struct SessionView: Sendable {
        var peer: PeerView?
        var feeds: Set<FeedID>?
    }

    /// Who a sync peer is: a contact, or a group peer limited to the feeds of the groups it shares.
    private struct PeerView: Sendable {
        /// The peer's feed.
        let feedID: FeedID
        /// Its contact record; nil for a group peer.
        let contact: ContactRecord?
        /// For a group peer, the only feeds it may exchange; nil for a contact (every followed feed).
        let shared: Set<FeedID>?
        /// For a group peer, its card as stored (decoded only to name it).
        var card: [UInt8]? = nil

        /// True when `feed` may be exchanged with this peer.
        func admits(_ feed: FeedID) -> Bool { shared?.contains(feed) ?? true }
    }

    /// Wraps a store; `decryptor` lets ingest index the content this identity can read.
    public convenience init(store: FeedStore, decryptor: (any ContentDecryptor)? = nil) {
        self.init(store: store, decryptor: decryptor, entryPage: 512)
    }

    /// Wraps a store, reading a feed's delta `entryPage` entries per store call.
    init(
        store: FeedStore, decryptor: (any ContentDecryptor)?, entryPage: Int,
        now: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) },
        onIngest: (@Sendable ([[UInt8]], IngestReport) -> Void)? = nil
    ) {
        self.now = now
        self.store = store
        self.decryptor = decryptor
        self.entryPage = max(1, entryPage)
        self.onIngest = onIngest
    }

    /// The contact whose current `dh_key` is `staticKey`, or whose immediately previous one it is while that
    /// contact's rotation grace is open (``RotationSyncGrace``), if any (nil also when the store cannot
    /// be read: the allow-list fails closed). Sync itself uses the throwing lookup. The read runs
    /// off the cooperative pool.
    public func contact(staticKey: [UInt8]) async -> ContactRecord? {
        let now = now()
        return await BlockingWork.run { [store] () throws(Never) in
            try? Self.lookUpContact(staticKey: staticKey, in: store, nowSeconds: now, during: .followedFeeds)
        }
    }

    /// Reads the contact whose current `dh_key` is `staticKey`, or else whose previous one it is during the
    /// rotation grace; a store failure throws (it is not "no contact").
    private static func lookUpContact(
        staticKey: [UInt8], in store: FeedStore, nowSeconds: Int64, during operation: SyncSourceError.Operation
    ) throws(SyncSourceError) -> ContactRecord? {
        guard staticKey.count == 32 else { return nil }
        let contacts = try storeCall(operation) { () throws(StoreError) in try store.contacts() }
        let encoded = Base64URL.encode(staticKey)
        if let contact = contacts.first(where: { $0.dhKey == encoded }) { return contact }
        // A contact who rotated presents its previous dh key until its grace ends (docs/sync.md, "After a key rotation").
        let usedKeys = try storeCall(operation) { () throws(StoreError) in try store.contactDHKeys() }
        for contact in contacts {
            guard let previous = usedKeys[contact.feedID]?.first(where: { $0 != contact.dhKey }), previous == encoded else { continue }
            let rotations = try storeCall(operation) { () throws(StoreError) in try store.keyRotations(feed: contact.feedID) }
            if RotationSyncGrace.isOpen(after: rotations, nowSeconds: nowSeconds) { return contact }
        }
        return nil
    }

    /// The contact, or else the group peer sharing an active group, whose `dh_key` is `staticKey`; a store failure
    /// throws (it is not "nobody").
    private static func lookUpPeer(
        staticKey: [UInt8], in store: FeedStore, nowSeconds: Int64, during operation: SyncSourceError.Operation
    ) throws(SyncSourceError) -> PeerView? {
        if let contact = try lookUpContact(staticKey: staticKey, in: store, nowSeconds: nowSeconds, during: operation) {
            return PeerView(feedID: contact.feedID, contact: contact, shared: nil)
        }
        guard staticKey.count == 32 else { return nil }
        return try storeCall(operation) { () throws(StoreError) -> PeerView? in
            guard let peer = try store.groupPeer(dhKey: Base64URL.encode(staticKey)) else { return nil }
            return PeerView(feedID: peer.feedID, contact: nil, shared: try store.feedsSharingGroups(with: peer.feedID), card: peer.card)
        }
    }

    /// The peer as its session read it (read now when no session of it started here).
    private func sessionPeer(_ peer: SyncPeer, during operation: SyncSourceError.Operation) throws(SyncSourceError) -> PeerView? {
        if let view = sessions.withLock({ $0[peer] }) { return view.peer }
        let found = try Self.lookUpPeer(staticKey: peer.staticKey, in: store, nowSeconds: now(), during: operation)
        sessions.withLock { $0[peer, default: SessionView()].peer = found }
        return found
    }

    /// Runs one store call, turning its `StoreError` into the `SyncSourceError` of `operation`.
    private static func storeCall<T>(_ operation: SyncSourceError.Operation, _ body: () throws(StoreError) -> T) throws(SyncSourceError) -> T {
        do {
            return try body()
        } catch {
            throw SyncSourceError(operation, reason: error.description)
        }
    }

    /// True when `staticKey` is a contact's `dh_key`.
    public func isContact(staticKey: [UInt8]) async -> Bool {
        await contact(staticKey: staticKey) != nil
    }

    /// The allow-list of a `SecureLink`: true when `staticKey` is a contact's `dh_key`, a group peer's that shares
    /// an active group with this identity, or a pending contact's (a scanned compact card, whose full card the card
    /// phase fetches; until it completes the contact nothing is asked of or offered to that peer). False too when the
    /// store cannot be read: it fails closed.
    public func isSyncPeer(staticKey: [UInt8]) async -> Bool {
        let now = now()
        return await BlockingWork.run { [store] () throws(Never) in
            if (try? Self.lookUpPeer(staticKey: staticKey, in: store, nowSeconds: now, during: .followedFeeds)) != nil { return true }
            return (try? store.pendingContact(dhKey: staticKey)) != nil
        }
    }

    /// How to name the peer with `staticKey`: a contact's shown name, a group peer's card name marked as such, or nil.
    public func peerName(staticKey: [UInt8]) async -> String? {
        let now = now()
        return await BlockingWork.run { [store] () throws(Never) -> String? in
            guard let found = try? Self.lookUpPeer(staticKey: staticKey, in: store, nowSeconds: now, during: .followedFeeds) else { return nil }
            if let contact = found.contact { return contact.shownName }
            var name = String(found.feedID.string.prefix(8)) + "…"
            if let bytes = found.card, let card = try? ContactCard.decode(bytes), !card.displayName.isEmpty {
                name = card.displayName
            }
            return name + " (group member)"
        }
    }

    /// Starts a session's view of `peer`: reads its contact record and every followed feed once
    /// (a fixed number of statements, whatever the number of feeds).
    public func followedFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [SyncFeedState] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard let found = try Self.lookUpPeer(staticKey: peer.staticKey, in: store, nowSeconds: now(), during: .followedFeeds) else {
                sessions.withLock { $0[peer] = SessionView(peer: nil, feeds: []) }
                return []
            }
            let feeds = try Self.storeCall(.followedFeeds) { () throws(StoreError) in try store.replicationStates() }
                .filter { found.admits($0.feedID) }
            sessions.withLock { $0[peer] = SessionView(peer: found, feeds: Set(feeds.map(\.feedID))) }
            return feeds.map { feed in
                SyncFeedState(feedID: feed.feedID, haveSequence: feed.headSequence, heldRanges: SyncHeldRanges.ranges(of: feed.heldSequences))
            }
        }
    }

    public func servableFeeds(for peer: SyncPeer) async throws(SyncSourceError) -> [FeedID] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard let found = try sessionPeer(peer, during: .followedFeeds) else { return [] }
            // Read fresh: feeds followed since the session started (a card received in it) are served too.
            let feeds = try Self.storeCall(.followedFeeds) { () throws(StoreError) in try store.replicationStates() }
                .filter { found.admits($0.feedID) }
            sessions.withLock { $0[peer, default: SessionView()].feeds = Set(feeds.map(\.feedID)) }
            return feeds.map(\.feedID)
        }
    }

    public func outgoing(feed feedID: FeedID, above haveSequence: UInt32?, for peer: SyncPeer) async throws(SyncSourceError) -> SyncFeedBatch? {
        try await BlockingWork.run { [self] () throws(SyncSourceError) -> SyncFeedBatch? in
            guard let found = try sessionPeer(peer, during: .outgoing) else { return nil }
            let followed: Bool
            if let feeds = sessions.withLock({ $0[peer]?.feeds }) {
                followed = feeds.contains(feedID)
            } else {
                let isFollowed = try Self.storeCall(.outgoing) { () throws(StoreError) in try store.isFollowed(feedID) }
                followed = isFollowed && found.admits(feedID)
            }
            guard followed else { return nil }
            // Only the delta above the peer's have_seq is read, a page at a time through the
            // (feed_id, sequence) index. A missing self stub withholds this feed and says so (not
            // silently); other failures stop the session.
            var entries: [PeerEntry] = []
            let head: UInt32?
            do throws(StoreError) {
                var floor = haveSequence
                while true {
                    let page = try store.entries(of: feedID, above: floor, limit: entryPage)
                    entries += page
                    guard page.count == entryPage, let last = page.last else { break }
                    floor = last.sequence
                }
                head = try store.peerHead(of: feedID)
            } catch {
                if case .missingSelfStub = error { throw SyncSourceError(.outgoing, reason: error.description, feedOnly: true) }
                throw SyncSourceError(.outgoing, reason: error.description)
            }
            guard let head else { return nil }
            let acked = acknowledged.withLock { $0[peer] ?? [] }
            let isPeersFeed = found.feedID == feedID
            var envelopes: [SyncOutgoingEnvelope] = []
            envelopes.reserveCapacity(entries.count)
            for entry in entries.reversed() {
                guard acked.isEmpty || !acked.contains(SyncMessageID(envelope: entry.line)) else { continue }
                envelopes.append(SyncOutgoingEnvelope(
                    sequence: entry.sequence, bytes: entry.line,
                    priority: isPeersFeed ? .peerOwnFeed : Self.priority(ofType: entry.type)
                ))
            }
            return SyncFeedBatch(latestSequence: head, envelopes: envelopes)
        }
    }

    public func feedID(of envelope: [UInt8]) -> FeedID? {
        (try? FeedEntry.parse(envelope))?.feedID
    }

    public func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async throws(SyncSourceError) -> [SyncIngestResult] {
        try await BlockingWork.run { [self] () throws(SyncSourceError) in
            guard let found = try sessionPeer(peer, during: .ingest) else { return messages.map { _ in .invalid } }
            // A group peer delivers only the feeds of the groups it shares; anything else is refused unread.
            let admitted = messages.indices.filter { index in
                found.shared == nil || feedID(of: messages[index].envelope).map(found.admits) == true
            }
            // A failed transaction stored nothing and throws: the session stops without acknowledging.
            let envelopes = admitted.map { messages[$0].envelope }
            let report = try Self.storeCall(.ingest) { () throws(StoreError) in
                try store.ingest(envelopes, decryptor: decryptor)
            }
            onIngest?(envelopes, report)
            var outcomeOf: [Int: Int] = [:]
            for (position, index) in admitted.enumerated() { outcomeOf[index] = position }
            return messages.indices.map { index in
                guard let position = outcomeOf[index], position < report.outcomes.count else { return .invalid }
                switch report.outcomes[position] {
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
            guard (try? sessionPeer(peer, during: .followedFeeds)) != nil, let hashes = try? store.missingReferencedBlobs() else { return [] }
            return hashes.compactMap(SyncBlobID.init(contentHash:))
        }
    }

    public func blob(_ id: SyncBlobID, for peer: SyncPeer) async -> [UInt8]? {
        await BlockingWork.run { [self] () throws(Never) in
            guard (try? sessionPeer(peer, during: .followedFeeds)) != nil else { return nil }
            return try? store.blob(id.description)
        }
    }

    public func storeBlob(_ blob: [UInt8], id: SyncBlobID, from peer: SyncPeer) async -> Bool {
        await BlockingWork.run { [self] () throws(Never) in
            guard (try? sessionPeer(peer, during: .ingest)) != nil, SyncBlobID(blob: blob) == id else { return false }
            return (try? store.putBlob(blob)) != nil
        }
    }

    /// Adds a finished session to the peer's persisted record (`sync_peer_state`).
    public func recordSession(_ report: SyncSessionReport, peer: SyncPeer) async {
        await BlockingWork.run { [store] () throws(Never) in self.recordSessionNow(report, peer: peer, in: store) }
    }

    private func recordSessionNow(_ report: SyncSessionReport, peer: SyncPeer, in store: FeedStore) {
        // The session is over: its view of the peer (who it is and its feeds, read at its start) goes.
        _ = sessions.withLock { $0.removeValue(forKey: peer) }
        try? store.recordSyncSession(
            peerKey: Base64URL.encode(peer.staticKey),
            outcome: SyncSessionOutcome(
                completed: report.completed, messagesReceived: report.messagesAccepted,
                messagesSent: report.messagesSent, blobsReceived: report.blobsReceived
            )
        )
    }

    /// The persisted record of a peer, if it ever synced with this device.
    public func peerRecord(_ peer: SyncPeer) async -> SyncPeerRecord? {
        await BlockingWork.run { [store] () throws(Never) in try? store.syncPeerRecord(peerKey: Base64URL.encode(peer.staticKey)) }
    }

    /// The spec 8.5 class of an entry from the envelope `type` recorded at ingest (stubs: content).
    static func priority(ofType type: String?) -> SyncPriority {
        switch type {
        case "key_rotation", "group_event": .keyMaterial
        case "tombstone", "profile_update": .lowUrgency
        default: .content
        }
    }
}

extension Account {
    /// This account's store as a sync source, decrypting what this identity can read on ingest.
    /// Use it with `identity.dhKey` as the `SecureLinkConfiguration.localStatic` key and
    /// ``StoreSyncSource/isContact(staticKey:)`` as the allow-list.
    ///
    /// What its ingest stores is announced on ``events()``. Self messages replicate as signed
    /// stubs: ``SyncAgent/run(link:clock:observer:)`` signs any missing ones first (see
    /// ``Account/Feed/signMissingSelfStubs()``).
    public func makeSyncSource() -> StoreSyncSource {
        StoreSyncSource(
            store: store, decryptor: AccountDecryptor(identity: identity, store: store, cache: contactsKeyCache), entryPage: 512, now: clock
        ) { [weak self] entries, report in
            self?.announceSynced(entries, report: report)
        }
    }

    /// Emits what a sync ingest batch stored, per feed, and the verified key rotations among it.
    func announceSynced(_ entries: [[UInt8]], report: IngestReport) {
        // What the batch stored, as ingest reports it (nothing is parsed again).
        var stored: [FeedID: [MessageID]] = [:]
        var order: [FeedID] = []
        var rotations: [FeedID: Set<UInt32>] = [:]
        for linked in report.linked {
            if stored[linked.feedID] == nil { order.append(linked.feedID) }
            stored[linked.feedID, default: []].append(linked.messageID)
            if linked.type == "key_rotation" { rotations[linked.feedID, default: []].insert(linked.sequence) }
        }
        for feed in order { hub.emit(.messagesStored(feed: feed, messages: stored[feed] ?? [])) }
        for (feed, sequences) in rotations {
            let verified = (try? store.keyRotations(feed: feed))?.contains { $0.verified && sequences.contains($0.sequence) } ?? false
            if verified { hub.emit(.keysRotated(feed)) }
        }
    }
}
