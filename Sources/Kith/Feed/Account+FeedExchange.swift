import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore
import Synchronization

/// Reading the feeds held here, and exchanging feeds as exported lines.
extension Account {
    func importFeedBlocking(
        lines: [[UInt8]], identityKey: Curve25519.Signing.PublicKey, followed: Bool = false, progress: (IngestProgress) -> Void
    ) throws(KithError) -> IngestReport {
        if !followed {
            do {
                try store.follow(identityKey: identityKey)
            } catch {
                throw .store(error)
            }
        }
        let decryptor = deferredDecryptor
        let report = try announcingIngest(of: FeedID(identityKey: identityKey)) { () throws(KithError) in
            do throws(StoreError) { return try store.ingest(streaming: lines, decryptor: decryptor, progress: progress) } catch { throw .store(error) }
        }
        try processAfterImportBlocking()
        return report
    }

    /// The passes every import runs after its ingest — direct messages (then groups), one-time messages — each only
    /// when one read (``FeedStore/pendingPasses(local:now:)``) finds work for it: a pass with nothing to do would open
    /// its transaction, find nothing and change nothing.
    func processAfterImportBlocking() throws(KithError) {
        let passes: PendingPasses
        do throws(StoreError) { passes = try store.pendingPasses(local: feedID, now: clock()) } catch { throw .store(error) }
        if passes.directMessages {
            // Opening direct messages may bring Welcomes and invite messages: the group pass then runs in full.
            try processDirectMessagesBlocking()
        } else if passes.anyGroupWork {
            try processGroupMessagesBlocking(passes: passes)
        }
        if passes.oneTimeMessages { try processOneTimeMessagesBlocking() }
        if passes.reestablishment {
            // A readmission request left pending is settled; after a restore, an import may have brought the own head:
            // the guard lifts and re-establishment runs (docs/CONTINUITY.md section 8). Neither fails the import.
            _ = try? honourReadmissionRequestsBlocking()
            _ = try? reestablishIfDueBlocking()
        }
    }

    /// Runs an ingest into `feed` and emits what it stored: ``AccountEvent/messagesStored(feed:messages:)``
    /// with the new messages, and ``AccountEvent/keysRotated(_:)`` when a verified key rotation
    /// arrived with them.
    func announcingIngest(of feed: FeedID, _ ingest: () throws(KithError) -> IngestReport) throws(KithError) -> IngestReport {
        let report = try ingest()
        var stored: [MessageID] = []
        for outcome in report.outcomes { if case .stored(let id, _) = outcome { stored.append(id) } }
        stored += report.promoted
        guard !stored.isEmpty else { return report }
        hub.emit(.messagesStored(feed: feed, messages: stored))
        if try verifiedRotationLinked(report, of: feed) { hub.emit(.keysRotated(feed)) }
        return report
    }

    /// Whether this ingest linked a key rotation of `feed` that verified. Rotations are recorded (verified or not)
    /// only when their message is linked, so a verified record at a sequence this ingest linked is a new one; an
    /// ingest that linked no `key_rotation` reads nothing.
    private func verifiedRotationLinked(_ report: IngestReport, of feed: FeedID) throws(KithError) -> Bool {
        let sequences = Set(report.linked.filter { $0.feedID == feed && $0.type == ChainRules.keyRotationType }.map(\.sequence))
        guard !sequences.isEmpty else { return false }
        let rotations: [KeyRotationRecord]
        do throws(StoreError) { rotations = try store.keyRotations(feed: feed) } catch { throw .store(error) }
        return rotations.contains { $0.verified && sequences.contains($0.sequence) }
    }

    func signMissingSelfStubsBlocking() throws(KithError) {
        let missing: [Envelope]
        do throws(StoreError) { missing = try store.selfMessagesLackingStubs(feed: feedID) } catch { throw .store(error) }
        guard !missing.isEmpty else { return }
        var stubs: [SelfStub] = []
        let signer = identity
        do throws(FeedError) {
            for envelope in missing { stubs.append(try SelfStub.sign(envelope, with: signer)) }
        } catch {
            throw .feed(error)
        }
        do throws(StoreError) { try store.saveOwnStubs(stubs) } catch { throw .store(error) }
    }

    func importKnownFeedBlocking(lines: [[UInt8]], progress: (IngestProgress) -> Void) throws(KithError) -> IngestReport {
        guard let first = lines.first(where: { !$0.isEmpty }) else { throw .input(.invalid("the feed file is empty")) }
        let entry: FeedEntry
        do throws(FeedError) { entry = try FeedEntry.parse(first) } catch { throw .feed(error) }
        guard let feed = entry.feedID else { throw .input(.invalid("the first entry names no feed; pass --key")) }
        let key: IdentityPublicKey?
        do throws(StoreError) { key = try store.identityKey(of: feed) } catch { throw .store(error) }
        guard let key else { throw .input(.invalid("feed \(feed) is not a contact or followed feed here; add their card or pass --key")) }
        // The key came from the followed feeds: no need to look it up again.
        return try importFeedBlocking(lines: lines, identityKey: key, followed: true, progress: progress)
    }
}

extension Account.Feed {
    /// Messages this account holds, newest first, decrypted where readable.
    public func timeline(feed: FeedID? = nil, limit: Int = 100) async throws(KithError) -> [StoredMessage] {
        try await BlockingWork.run { () throws(KithError) in
            // Group messages are among them: a conversation past its explosion time explodes before anything is shown.
            try account.explodeDueGroups()
            do throws(StoreError) { return try account.store.messages(feed: feed, limit: limit) } catch { throw .store(error) }
        }
    }

    /// The sequence of the newest entry of `feed` linked into its chain here (nil: none held).
    public func headSequence(of feed: FeedID) async throws(KithError) -> UInt32? {
        try await BlockingWork.run { () throws(KithError) -> UInt32? in
            do throws(StoreError) { return try account.store.head(of: feed)?.sequence } catch { throw .store(error) }
        }
    }

    /// The entries of a feed as canonical lines, oldest first (self messages as stubs unless
    /// `includeSelfContent` and the feed is this account's).
    public func export(_ feed: FeedID? = nil, includeSelfContent: Bool = false) async throws(KithError) -> [[UInt8]] {
        try await BlockingWork.run { () throws(KithError) in
            let target = feed ?? account.feedID
            if target == account.feedID { try account.signMissingSelfStubsBlocking() }
            do throws(StoreError) {
                return try account.store.export(feed: target, forPeer: !(includeSelfContent && target == account.feedID))
            } catch {
                throw .store(error)
            }
        }
    }

    /// Imports exported lines of a feed verified by `identityKey` (followed from now on).
    ///
    /// The lines are ingested in transactions of `FeedStore.streamingBatchSize`, each durable
    /// once `progress` reports it; if one fails, the error is thrown and the reported ones stay.
    public func importVerified(
        lines: [[UInt8]], identityKey: Curve25519.Signing.PublicKey, progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }
    ) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in try account.importFeedBlocking(lines: lines, identityKey: identityKey, progress: progress) }
    }

    /// Signs the stubs that replicate in place of this account's self messages, for any that lack
    /// one (messages restored from a backup, or written before stubs were signed).
    public func signMissingSelfStubs() async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in try account.signMissingSelfStubsBlocking() }
    }

    /// Runs garbage collection (spec 9.3).
    public func collectGarbage(_ policy: GCPolicy = GCPolicy()) async throws(KithError) -> GCReport {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.collectGarbage(policy) } catch { throw .store(error) }
        }
    }

    /// Imports a contact's exported feed, verified with the identity key from the contact record.
    public func importFromContact(lines: [[UInt8]], contact: FeedID) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            let followedKey: IdentityPublicKey?
            do throws(StoreError) { followedKey = try account.store.identityKey(of: record.feedID) } catch { throw .store(error) }
            let originalKey: IdentityPublicKey
            if let followedKey {
                originalKey = followedKey
            } else {
                do throws(IdentityError) {
                    originalKey = try PublicKeys.identityKey(fromBase64URL: record.identityKey)
                } catch {
                    throw .contacts(.damagedRecord(record.feedID, reason: error.description))
                }
            }
            return try account.importFeedBlocking(lines: lines, identityKey: originalKey, progress: { _ in })
        }
    }

    /// Imports exported lines of a followed feed (a contact's, or one imported before), verified
    /// with the identity key already on record; the key is found from the first entry's feed id.
    public func importKnown(lines: [[UInt8]], progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in try account.importKnownFeedBlocking(lines: lines, progress: progress) }
    }
}
