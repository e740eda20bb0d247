import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import KithRatchet
import KithStore

/// Direct messages (spec 4.1, issue #3): `audience = "direct:{peer_feed_id}"` posts sealed by a
/// hybrid X3DH + ML-KEM-768 + Double Ratchet session per contact, sessions and one-time prekeys
/// kept sealed in SQLite.
///
/// ```swift
/// let bob = try await alice.contacts.resolve("Bob")           // a UI's lookup by name
/// try await alice.direct.send("see you at 6", to: bob.feedID)
/// // ... Bob imports or syncs Alice's feed ...
/// try await bob.direct.process()                      // also done by every import
/// for message in try await bob.direct.conversation(with: alice.feedID) { ... }
/// ```
extension Account {
    /// Default number of one-time prekeys handed to a contact at a time.
    public static let defaultPrekeyBatch = RatchetConstants.defaultOneTimePrekeyBatch

    // MARK: Sending

    /// Sends `content` to one contact; `alongside` runs in the append's transaction with its group state (what it
    /// writes commits with the message; what it throws cancels both).
    func sendDirectBlocking(
        _ content: Content, to contact: FeedID, alongside: (GroupStoreAccess) throws(KithError) -> Void = { _ in }
    ) throws(KithError) -> Envelope {
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        var refill = true
        if case .prekeyBatch = content { refill = false }
        return try sendDirectBlocking(plaintext: plaintext, type: content.type, to: contact, refill: refill, alongside: alongside)
    }

    /// Sends validated content plaintext of `type` to one contact (the path behind
    /// `sendDirect(_:to:)` and posts with attachments).
    func sendDirectBlocking(
        plaintext: [UInt8], type: String, to contact: FeedID, refill: Bool = true,
        alongside: (GroupStoreAccess) throws(KithError) -> Void = { _ in }
    ) throws(KithError) -> Envelope {
        let record = try contactRecordBlocking(contact)
        // An unverified contact's keys are a claim, not the feed's keys (docs section 11.1):
        // nothing is encrypted to them until the feed's rotation entries prove them.
        guard record.keyIsVerified else { throw .contacts(.unverified(name: record.shownName, record.feedID)) }
        let envelope = try sealAndAppendDirect(plaintext: plaintext, type: type, to: record, alongside: alongside)
        if refill, try prekeyPoolBlocking(with: record.feedID)?.needsRefill ?? false {
            _ = try sendPrekeysBlocking(to: record.feedID, count: Self.defaultPrekeyBatch)
        }
        return envelope
    }

    /// Appends the direct message: inside the append transaction the session layer
    /// (``DirectSessions``) encrypts through the store's ratchet state, so the advanced session,
    /// the removal of the contact's one-time prekey it used and the envelope commit together.
    private func sealAndAppendDirect(
        plaintext: [UInt8], type: String, to record: ContactRecord, alongside: (GroupStoreAccess) throws(KithError) -> Void
    ) throws(KithError) -> Envelope {
        let peer = try peerIdentity(record)
        let sessions = try directSessions()
        let signedPrekey: [UInt8]
        do throws(Base64URLError) {
            signedPrekey = try Base64URL.decode(record.dhKey, expectedLength: 32)
        } catch {
            throw .contacts(.damagedRecord(record.feedID, reason: "dh_key: \(error)"))
        }
        let localFeed = feedID.string
        return try appendWithDirectState(plaintext: plaintext, type: type, audience: .direct(record.feedID)) { slot throws(KithError) in
            try alongside(slot.groups)
            do throws(RatchetError) {
                let context = try DirectMessageContext.direct(from: localFeed, to: peer.feedID, sequence: UInt64(slot.sequence))
                let state = slot.directState.ratchet
                return try sessions.encrypt(
                    plaintext, to: peer, signedPrekey: signedPrekey, context: context, sessions: state, peerPrekeys: state
                )
            } catch {
                throw .ratchet(error)
            }
        }
    }

    // MARK: Receiving

    @discardableResult
    func processDirectMessagesBlocking() throws(KithError) -> DirectOpenReport {
        let sessions = try directSessions()
        let now = UInt64(max(0, clock()))
        let report: DirectOpenReport
        var readmissionAsked = false
        do {
            report = try store.openDirectMessages(to: feedID) { envelope, access in
                guard let keys = try access.contactKeys(peer: envelope.feedID.string) else { return nil }
                // The identity key in force when the message was written (a rotation may have
                // been ingested in the same batch); the current ML-KEM key for what follows.
                let identityKey = try access.identityKey(of: envelope.feedID.string, at: envelope.sequence) ?? keys.identityKey
                let peer = try PeerIdentity(
                    identityKey: try Base64URL.decode(identityKey, expectedLength: 32),
                    pqKey: try Base64URL.decode(keys.pqKey, expectedLength: RatchetConstants.mlkemPublicKeySize),
                    feedID: envelope.feedID.string
                )
                let plaintext = try Self.openDirect(envelope, from: peer, sessions: sessions, access: access, now: now)
                switch try? Content.parse(plaintext, envelopeType: envelope.type) {
                case .prekeyBatch(let content)?:
                    try DirectSessions.acceptPrekeyBatch(content.batchBytes, from: peer.feed, peerPrekeys: access.ratchet)
                    // A restored contact's pool with us is dead: drop ours with it, and only with it (docs/CONTINUITY.md section 8).
                    if content.poolReset {
                        try access.dropOneTimePools(peer: envelope.feedID.string)
                        // Its KeyPackages from before the restore cannot be opened any more: none of them is used.
                        try access.dropKeyPackagesOfRestoredPeer(envelope.feedID.string)
                    }
                case .keyPackageOffer(let offer)?:
                    // Kept with the message it came in, or not at all; one that is not the sender's own is ignored.
                    try Self.acceptKeyPackage(offer, from: envelope.feedID, access: access.groups)
                    if try Self.recordReadmissionRequest(offer, from: envelope.feedID, to: self.feedID, access: access) { readmissionAsked = true }
                case .pushTokens(let content)?:
                    // Only a contact's direct message reaches here (contactKeys above); a stranger's waits unread.
                    try access.acceptPushTokens(content, from: envelope.feedID.string)
                case .recoveryShare(let handover)?:
                    // Kept only when the share names its sender as owner; a newer set replaces an older one.
                    try Self.acceptRecoveryShare(handover, from: envelope.feedID, access: access)
                case .recoveryRevocation(let revocation)?:
                    // Deletes only the sender's own shares: a contact cannot revoke someone else's set.
                    try Self.acceptRecoveryRevocation(revocation, from: envelope.feedID, access: access)
                case .groupTreeOffer(let offer)?:
                    // Only its author's Welcome uses it, and MLS checks the tree against that Welcome's tree hash.
                    try access.groups.keepGroupTree(offer, from: envelope.feedID.string)
                default:
                    break
                }
                return plaintext
            }
        } catch {
            throw .store(error)
        }
        if !report.opened.isEmpty { hub.emit(.directMessagesOpened(report.opened)) }
        // Welcomes arrive as direct messages, and group messages may wait for them.
        try processGroupMessagesBlocking()
        // A request that cannot be settled now stays pending for the next import's pass; it never fails this one.
        if readmissionAsked { _ = try? honourReadmissionRequestsBlocking() }
        return report
    }

    /// Opens one direct message through ``DirectSessions/open(_:context:from:sessions:prekeys:now:entropy:)``
    /// with the transaction's ratchet state.
    static func openDirect(
        _ envelope: Envelope, from peer: PeerIdentity, sessions: DirectSessions, access: DirectSessionAccess, now: UInt64
    ) throws -> [UInt8] {
        let context = try DirectMessageContext(feedID: envelope.feedID.string, sequence: UInt64(envelope.sequence), audience: envelope.audience.description)
        return try sessions.open(
            try envelope.contentBytes(), context: context, from: peer, sessions: access.ratchet, prekeys: access.ratchet, now: now
        )
    }

    /// Opens one direct message with the keys of one generation (see
    /// ``openDirect(_:from:sessions:access:now:)``).
    static func openDirect(
        _ envelope: Envelope, from peer: PeerIdentity, local: LocalIdentityKeys, access: DirectSessionAccess, now: UInt64
    ) throws -> [UInt8] {
        try openDirect(envelope, from: peer, sessions: try DirectSessions(local: local), access: access, now: now)
    }

    // MARK: One-time prekeys

    func prekeyPoolBlocking(with peer: FeedID) throws(KithError) -> PrekeyPoolRecord? {
        do { return try store.prekeyPools().first { $0.peer == peer } } catch { throw .store(error) }
    }

    func issuePrekeysBlocking(for contact: FeedID, count: Int) throws(KithError) -> OneTimePrekeyBatch {
        let record = try contactRecordBlocking(contact)
        guard (1...RatchetConstants.maxOneTimePrekeys).contains(count) else {
            throw .input(.invalid("a prekey batch has 1...\(RatchetConstants.maxOneTimePrekeys) keys"))
        }
        let peer = record.feedID
        let limit = RatchetConstants.maxOneTimePrekeys
        let issued: (batch: OneTimePrekeyBatch?, held: Int) = try withRatchetState { access throws(RatchetError) in
            let status = try access.ratchet.status(forPeer: peer)
            guard status.remaining + count <= limit else { return (nil, status.remaining) }
            return (try access.ratchet.generateOneTimePrekeys(count: count, forPeer: peer), status.remaining)
        }
        guard let batch = issued.batch else {
            throw .input(.invalid("\(record.shownName) already holds \(issued.held) unused prekeys; at most \(limit) in total"))
        }
        return batch
    }

    func importPrekeyHandoverBlocking(_ text: String, from record: ContactRecord) throws(KithError) -> Int {
        let key: Curve25519.Signing.PublicKey
        do throws(IdentityError) {
            key = try PublicKeys.identityKey(fromBase64URL: record.identityKey)
        } catch {
            throw .contacts(.damagedRecord(record.feedID, reason: error.description))
        }
        let handover = try PrekeyHandover(text: text, issuerKey: key)
        guard handover.issuer == record.feedID else { throw .input(.prekeyHandover(.wrongIssuer(handover.issuer))) }
        guard handover.recipient == feedID else { throw .input(.prekeyHandover(.wrongRecipient(handover.recipient))) }
        let peer = record.feedID
        try withRatchetState { access throws(RatchetError) in try access.ratchet.addPeerPrekeys(handover.batch, forPeer: peer) }
        return handover.batch.entries.count
    }

    func sendPrekeysBlocking(to contact: FeedID, count: Int) throws(KithError) -> [Envelope] {
        let batch = try issuePrekeysBlocking(for: contact, count: count)
        var envelopes: [Envelope] = []
        var start = 0
        while start < batch.entries.count {
            let slice = Array(batch.entries[start..<min(start + FeedLimits.maxPrekeysPerMessage, batch.entries.count)])
            let part: OneTimePrekeyBatch
            do throws(RatchetError) { part = try OneTimePrekeyBatch(entries: slice) } catch { throw .ratchet(error) }
            envelopes.append(try sendDirectBlocking(.prekeyBatch(PrekeyBatch(batchBytes: part.encoded)), to: contact))
            start += slice.count
        }
        return envelopes
    }

    // MARK: Helpers

    /// This identity's keys as the ratchet needs them.
    func ratchetKeys() throws(KithError) -> LocalIdentityKeys {
        let identity = identity
        do throws(RatchetError) {
            return try LocalIdentityKeys(identityKey: identity.signingKey, dhKey: identity.dhKey, pqKey: identity.pqKey, feedID: feedID.string)
        } catch {
            throw .ratchet(error)
        }
    }

    /// The retired generations' keys still kept after rotations, newest first (none before the first).
    func retiredRatchetKeys() throws(KithError) -> [LocalIdentityKeys] {
        let feed = feedID.string
        do throws(RatchetError) {
            return try identity.retiredGenerations.map { generation throws(RatchetError) in
                try LocalIdentityKeys(identityKey: generation.signingKey, dhKey: generation.dhKey, pqKey: generation.pqKey, feedID: feed)
            }
        } catch {
            throw .ratchet(error)
        }
    }

    /// The session layer for this identity's current keys and its retired generations.
    func directSessions() throws(KithError) -> DirectSessions {
        let local = try ratchetKeys()
        let retired = try retiredRatchetKeys()
        do throws(RatchetError) { return try DirectSessions(local: local, retired: retired) } catch { throw .ratchet(error) }
    }

    func peerIdentity(_ record: ContactRecord) throws(KithError) -> PeerIdentity {
        let identityKey: [UInt8]
        let pqKey: [UInt8]
        do throws(Base64URLError) {
            identityKey = try Base64URL.decode(record.identityKey, expectedLength: 32)
            pqKey = try Base64URL.decode(record.pqKey, expectedLength: RatchetConstants.mlkemPublicKeySize)
        } catch {
            throw .contacts(.damagedRecord(record.feedID, reason: "\(error)"))
        }
        do throws(RatchetError) {
            return try PeerIdentity(identityKey: identityKey, pqKey: pqKey, feedID: record.feedID.string)
        } catch {
            throw .ratchet(error)
        }
    }

    /// Runs ratchet-state work in one write transaction of the store; a `RatchetError` of
    /// `body` surfaces as ``KithError/ratchet(_:)``, a store failure as ``KithError/store(_:)``.
    @discardableResult
    func withRatchetState<T>(_ body: (DirectSessionAccess) throws(RatchetError) -> T) throws(KithError) -> T {
        var failure: RatchetError?
        do throws(StoreError) {
            return try store.withDirectState { access in
                do throws(RatchetError) { return try body(access) } catch {
                    failure = error
                    throw error
                }
            }
        } catch {
            if let failure { throw .ratchet(failure) }
            throw .store(error)
        }
    }
}

extension PrekeyPoolRecord {
    /// True when the contact holds fewer than 10 % of the last batch handed to them (the
    /// ratchet's low-water rule, `PrekeyPoolStatus.isBelowLowWater`), or none was handed yet:
    /// time to refill at the next chance.
    public var needsRefill: Bool {
        lastBatchSize == 0 || PrekeyPoolStatus(remaining: handedRemaining, lastBatchSize: lastBatchSize).isBelowLowWater
    }
}

extension Account.Direct {
    /// Sends text to one contact.
    @discardableResult
    public func send(_ text: String, to contact: FeedID) async throws(KithError) -> Envelope {
        try await send(.post(Post(body: text)), to: contact)
    }

    /// Sends content to one contact through the direct session (started on first use from the
    /// contact's keys and, when one is held, one of their one-time prekeys).
    ///
    /// The advanced session is stored (sealed) in the transaction that appends the envelope, so
    /// both commit or neither does: a message key is never reused. When the one-time prekeys handed
    /// to this contact run low (below 10 % of the last batch, or none were handed yet), a fresh
    /// batch follows in a `prekey_batch` message.
    @discardableResult
    public func send(_ content: Content, to contact: FeedID) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.sendDirectBlocking(content, to: contact) }
    }

    /// Decrypts every direct message addressed to this identity that is not decrypted yet, in
    /// feed order, each exactly once (session update, prekey consumption and sealed content
    /// commit together).
    ///
    /// Called by every import; call it after a sync. Messages of people who are not contacts
    /// wait (they become readable once the card is added); messages that fail (tampered,
    /// replayed, unknown prekey) are recorded with their reason and not retried.
    @discardableResult
    public func process() async throws(KithError) -> DirectOpenReport {
        try await BlockingWork.run { () throws(KithError) in try account.processDirectMessagesBlocking() }
    }

    /// The direct conversation with a contact, oldest first.
    public func conversation(with contact: FeedID, limit: Int = 100) async throws(KithError) -> [StoredMessage] {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            do throws(StoreError) { return try account.store.conversation(between: account.feedID, and: record.feedID, limit: limit) } catch { throw .store(error) }
        }
    }

    /// Direct messages that could not be decrypted, with the reason.
    public func failures() async throws(KithError) -> [DirectFailure] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.directFailures() } catch { throw .store(error) }
        }
    }

    /// One-time prekey pools with every contact.
    public func prekeyPools() async throws(KithError) -> [PrekeyPoolRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.prekeyPools() } catch { throw .store(error) }
        }
    }

    /// The pool with one contact.
    public func prekeyPool(with peer: FeedID) async throws(KithError) -> PrekeyPoolRecord? {
        try await BlockingWork.run { () throws(KithError) in try account.prekeyPoolBlocking(with: peer) }
    }

    /// Generates `count` one-time prekeys for a contact (private halves sealed in SQLite) and
    /// returns the public batch to hand over.
    public func issuePrekeys(for contact: FeedID, count: Int = Account.defaultPrekeyBatch) async throws(KithError) -> OneTimePrekeyBatch {
        try await BlockingWork.run { () throws(KithError) in try account.issuePrekeysBlocking(for: contact, count: count) }
    }

    /// A signed handover of `count` fresh one-time prekeys for a contact, to give them in person.
    public func prekeyHandover(for contact: FeedID, count: Int = Account.defaultPrekeyBatch) async throws(KithError) -> PrekeyHandover {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            let batch = try account.issuePrekeysBlocking(for: record.feedID, count: count)
            return try PrekeyHandover.sign(batch: batch, issuer: account.feedID, recipient: record.feedID, identity: account.identity)
        }
    }

    /// Stores the one-time prekeys a contact handed over in person (verified with their key).
    ///
    /// - Returns: how many keys were added.
    @discardableResult
    public func importPrekeyHandover(_ text: String, from contact: FeedID) async throws(KithError) -> Int {
        try await BlockingWork.run { () throws(KithError) in try account.importPrekeyHandoverBlocking(text, from: try account.contactRecordBlocking(contact)) }
    }

    /// Sends a contact `count` fresh one-time prekeys over the direct session, in `prekey_batch`
    /// messages of at most `FeedLimits.maxPrekeysPerMessage` keys.
    @discardableResult
    public func sendPrekeys(to contact: FeedID, count: Int = Account.defaultPrekeyBatch) async throws(KithError) -> [Envelope] {
        try await BlockingWork.run { () throws(KithError) in try account.sendPrekeysBlocking(to: contact, count: count) }
    }
}
