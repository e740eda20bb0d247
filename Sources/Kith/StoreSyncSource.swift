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

    /// Wraps a store; `decryptor` lets ingest index the content this identity can read.
    public init(store: FeedStore, decryptor: (any ContentDecryptor)? = nil) {
        self.store = store
        self.decryptor = decryptor
    }

    /// The contact whose current `dh_key` is `staticKey`, if any.
    public func contact(staticKey: [UInt8]) -> ContactRecord? {
        guard staticKey.count == 32, let contacts = try? store.contacts() else { return nil }
        let encoded = Base64URL.encode(staticKey)
        return contacts.first { $0.dhKey == encoded }
    }

    /// The allow-list of a ``SecureLink``: true when `staticKey` is a contact's `dh_key`.
    public func isContact(staticKey: [UInt8]) -> Bool {
        contact(staticKey: staticKey) != nil
    }

    public func followedFeeds(for peer: SyncPeer) async -> [SyncFeedState] {
        guard isContact(staticKey: peer.staticKey), let feeds = try? store.followedFeeds() else { return [] }
        return feeds.compactMap { feed in
            guard let id = try? SyncFeedID(bytes: feed.feedID.rawBytes) else { return nil }
            let held = feed.pendingCount > 0 ? (try? store.heldSequencesAhead(of: feed.feedID)) ?? [] : []
            return SyncFeedState(feedID: id, haveSequence: feed.head?.sequence, heldRanges: SyncHeldRanges.ranges(of: held))
        }
    }

    public func outgoing(feed: SyncFeedID, above haveSequence: UInt32?, for peer: SyncPeer) async -> SyncFeedBatch? {
        guard let contact = contact(staticKey: peer.staticKey),
              let feedID = try? FeedID(rawBytes: feed.bytes),
              let followed = try? store.followedFeeds(),
              followed.contains(where: { $0.feedID == feedID }),
              let entries = try? store.export(feed: feedID, forPeer: true),
              !entries.isEmpty
        else { return nil }
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

    public func ingest(_ messages: [ReceivedMessage], from peer: SyncPeer) async -> [SyncIngestResult] {
        guard isContact(staticKey: peer.staticKey) else { return messages.map { _ in .invalid } }
        guard let report = try? store.ingest(messages.map(\.envelope), decryptor: decryptor) else {
            // The transaction failed as a whole: nothing was stored, nothing is acknowledged ok.
            return messages.map { _ in .invalid }
        }
        return messages.indices.map { index in
            guard index < report.outcomes.count else { return .invalid }
            switch report.outcomes[index] {
            case .duplicate: return .duplicate
            case let outcome where outcome.isAccepted: return .accepted
            default: return .invalid
            }
        }
    }

    public func acknowledged(_ messageID: SyncMessageID, status: SyncAck.Status, by peer: SyncPeer) async {
        acknowledged.withLock { _ = $0[peer, default: []].insert(messageID) }
    }

    // MARK: Blobs

    public func wantedBlobs(from peer: SyncPeer) async -> [SyncBlobID] {
        guard isContact(staticKey: peer.staticKey), let hashes = try? store.missingReferencedBlobs() else { return [] }
        return hashes.compactMap(SyncBlobID.init(contentHash:))
    }

    public func blob(_ id: SyncBlobID, for peer: SyncPeer) async -> [UInt8]? {
        guard isContact(staticKey: peer.staticKey) else { return nil }
        return try? store.blob(id.description)
    }

    public func storeBlob(_ blob: [UInt8], id: SyncBlobID, from peer: SyncPeer) async -> Bool {
        guard isContact(staticKey: peer.staticKey), SyncBlobID(blob: blob) == id else { return false }
        return (try? store.putBlob(blob)) != nil
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
    public func makeSyncSource() -> StoreSyncSource {
        try? signMissingSelfStubsBlocking()
        return StoreSyncSource(store: store, decryptor: AccountDecryptor(identity: identity, store: store))
    }
}
