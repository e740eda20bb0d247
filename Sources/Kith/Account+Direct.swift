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
/// try alice.sendDirect("see you at 6", to: "bob")      // a contact's name or feed id
/// // ... Bob imports or syncs Alice's feed ...
/// try bob.processDirectMessages()                      // also done by every import
/// for message in try bob.conversation(with: "alice") { ... }
/// ```
extension Account {
    /// Default number of one-time prekeys handed to a contact at a time.
    public static let defaultPrekeyBatch = RatchetConstants.defaultOneTimePrekeyBatch

    // MARK: Sending

    /// Sends text to one contact.
    @discardableResult
    public func sendDirect(_ text: String, to contact: String) throws(KithError) -> Envelope {
        try sendDirect(.post(Post(body: text)), to: contact)
    }

    /// Sends content to one contact through the direct session (started on first use from the
    /// contact's keys and, when one is held, one of their one-time prekeys).
    ///
    /// The advanced session is stored (sealed) in the transaction that appends the envelope, so
    /// both commit or neither does: a message key is never reused. When the one-time prekeys handed
    /// to this contact run low (below 10 % of the last batch, or none were handed yet), a fresh
    /// batch follows in a `prekey_batch` message.
    @discardableResult
    public func sendDirect(_ content: Content, to contact: String) throws(KithError) -> Envelope {
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        var refill = true
        if case .prekeyBatch = content { refill = false }
        return try sendDirect(plaintext: plaintext, type: content.type, to: contact, refill: refill)
    }

    /// Sends validated content plaintext of `type` to one contact (the path behind
    /// ``sendDirect(_:to:)`` and posts with attachments).
    func sendDirect(plaintext: [UInt8], type: String, to contact: String, refill: Bool = true) throws(KithError) -> Envelope {
        let record = try resolveContact(contact)
        // An unverified contact's keys are a claim, not the feed's keys (docs section 11.1):
        // nothing is encrypted to them until the feed's rotation entries prove them.
        guard record.keyIsVerified else {
            throw .invalidInput("\(record.shownName)'s keys are not verified yet (their card names keys of a key rotation this device has not seen); sync their feed first")
        }
        let envelope = try sealAndAppendDirect(plaintext: plaintext, type: type, to: record)
        if refill, try prekeyPool(with: record.feedID)?.needsRefill ?? false {
            _ = try sendPrekeys(to: record.feedID.string, count: Self.defaultPrekeyBatch)
        }
        return envelope
    }

    /// Appends the direct message: inside the append transaction the session layer
    /// (``DirectSessions``) encrypts through the store's ratchet state, so the advanced session,
    /// the removal of the contact's one-time prekey it used and the envelope commit together.
    private func sealAndAppendDirect(plaintext: [UInt8], type: String, to record: ContactRecord) throws(KithError) -> Envelope {
        let peer = try peerIdentity(record)
        let sessions = try directSessions()
        let signedPrekey: [UInt8]
        do { signedPrekey = try Base64URL.decode(record.dhKey, expectedLength: 32) } catch { throw Self.directError(error) }
        let localFeed = feedID.string
        return try appendWithDirectState(plaintext: plaintext, type: type, audience: .direct(record.feedID)) { slot throws(KithError) in
            do {
                let context = try DirectMessageContext.direct(from: localFeed, to: peer.feedID, sequence: UInt64(slot.sequence))
                let state = slot.directState.ratchet
                return try sessions.encrypt(
                    plaintext, to: peer, signedPrekey: signedPrekey, context: context, sessions: state, peerPrekeys: state
                )
            } catch {
                throw Self.directError(error)
            }
        }
    }

    // MARK: Receiving

    /// Decrypts every direct message addressed to this identity that is not decrypted yet, in
    /// feed order, each exactly once (session update, prekey consumption and sealed content
    /// commit together).
    ///
    /// Called by every import; call it after a sync. Messages of people who are not contacts
    /// wait (they become readable once the card is added); messages that fail (tampered,
    /// replayed, unknown prekey) are recorded with their reason and not retried.
    @discardableResult
    public func processDirectMessages() throws(KithError) -> DirectOpenReport {
        let sessions = try directSessions()
        let now = UInt64(max(0, clock()))
        do {
            return try store.openDirectMessages(to: feedID) { envelope, access in
                guard let keys = try access.contactKeys(peer: envelope.feedID.string) else { return nil }
                let peer = try PeerIdentity(
                    identityKey: try Base64URL.decode(keys.identityKey, expectedLength: 32),
                    pqKey: try Base64URL.decode(keys.pqKey, expectedLength: RatchetConstants.mlkemPublicKeySize),
                    feedID: envelope.feedID.string
                )
                let plaintext = try Self.openDirect(envelope, from: peer, sessions: sessions, access: access, now: now)
                if case .prekeyBatch(let content)? = try? Content.parse(plaintext, envelopeType: envelope.type) {
                    try DirectSessions.acceptPrekeyBatch(content.batchBytes, from: peer.feed, peerPrekeys: access.ratchet)
                }
                return plaintext
            }
        } catch {
            throw .store(error)
        }
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

    // MARK: Reading

    /// The direct conversation with a contact (name or feed id), oldest first.
    public func conversation(with contact: String, limit: Int = 100) throws(KithError) -> [StoredMessage] {
        let record = try resolveContact(contact)
        do { return try store.conversation(between: feedID, and: record.feedID, limit: limit) } catch { throw .store(error) }
    }

    /// Direct messages that could not be decrypted, with the reason.
    public func directFailures() throws(KithError) -> [DirectFailure] {
        do { return try store.directFailures() } catch { throw .store(error) }
    }

    // MARK: One-time prekeys

    /// One-time prekey pools with every contact.
    public func prekeyPools() throws(KithError) -> [PrekeyPoolRecord] {
        do { return try store.prekeyPools() } catch { throw .store(error) }
    }

    /// The pool with one contact.
    public func prekeyPool(with peer: KithIdentity.FeedID) throws(KithError) -> PrekeyPoolRecord? {
        try prekeyPools().first { $0.peer == peer }
    }

    /// Generates `count` one-time prekeys for a contact (private halves sealed in SQLite) and
    /// returns the public batch to hand over.
    public func issuePrekeys(for contact: String, count: Int = defaultPrekeyBatch) throws(KithError) -> OneTimePrekeyBatch {
        let record = try resolveContact(contact)
        guard (1...RatchetConstants.maxOneTimePrekeys).contains(count) else {
            throw .invalidInput("a prekey batch has 1...\(RatchetConstants.maxOneTimePrekeys) keys")
        }
        let peer = record.feedID
        let limit = RatchetConstants.maxOneTimePrekeys
        let issued: (batch: OneTimePrekeyBatch?, held: Int)
        do {
            issued = try store.withDirectState { access in
                let status = try access.ratchet.status(forPeer: peer)
                guard status.remaining + count <= limit else { return (nil, status.remaining) }
                return (try access.ratchet.generateOneTimePrekeys(count: count, forPeer: peer), status.remaining)
            }
        } catch {
            throw Self.directError(error)
        }
        guard let batch = issued.batch else {
            throw .invalidInput("\(record.shownName) already holds \(issued.held) unused prekeys; at most \(limit) in total")
        }
        return batch
    }

    /// A signed handover of `count` fresh one-time prekeys for a contact, to give them in person.
    public func prekeyHandover(for contact: String, count: Int = defaultPrekeyBatch) throws(KithError) -> PrekeyHandover {
        let record = try resolveContact(contact)
        let batch = try issuePrekeys(for: contact, count: count)
        return try PrekeyHandover.sign(batch: batch, issuer: feedID, recipient: record.feedID, identity: identity)
    }

    /// Stores the one-time prekeys a contact handed over in person (verified with their key).
    ///
    /// - Returns: how many keys were added.
    @discardableResult
    public func importPrekeyHandover(_ text: String, from contact: String) throws(KithError) -> Int {
        let record = try resolveContact(contact)
        let key: Curve25519.Signing.PublicKey
        do { key = try PublicKeys.identityKey(fromBase64URL: record.identityKey) } catch { throw .identity(error) }
        let handover = try PrekeyHandover(text: text, issuerKey: key)
        guard handover.issuer == record.feedID else { throw .invalidInput("this prekey handover was issued by \(handover.issuer), not \(record.shownName)") }
        guard handover.recipient == feedID else { throw .invalidInput("this prekey handover is for \(handover.recipient), not for this identity") }
        let peer = record.feedID
        do {
            try store.withDirectState { access in try access.ratchet.addPeerPrekeys(handover.batch, forPeer: peer) }
        } catch {
            throw .store(error)
        }
        return handover.batch.entries.count
    }

    /// Sends a contact `count` fresh one-time prekeys over the direct session, in `prekey_batch`
    /// messages of at most ``FeedLimits/maxPrekeysPerMessage`` keys.
    @discardableResult
    public func sendPrekeys(to contact: String, count: Int = defaultPrekeyBatch) throws(KithError) -> [Envelope] {
        let batch = try issuePrekeys(for: contact, count: count)
        var envelopes: [Envelope] = []
        var start = 0
        while start < batch.entries.count {
            let slice = Array(batch.entries[start..<min(start + FeedLimits.maxPrekeysPerMessage, batch.entries.count)])
            let part: OneTimePrekeyBatch
            do { part = try OneTimePrekeyBatch(entries: slice) } catch { throw Self.directError(error) }
            envelopes.append(try sendDirect(.prekeyBatch(PrekeyBatch(batchBytes: part.encoded)), to: contact))
            start += slice.count
        }
        return envelopes
    }

    // MARK: Helpers

    /// This identity's keys as the ratchet needs them.
    func ratchetKeys() throws(KithError) -> LocalIdentityKeys {
        do {
            return try LocalIdentityKeys(identityKey: identity.signingKey, dhKey: identity.dhKey, pqKey: identity.pqKey, feedID: feedID.string)
        } catch {
            throw Self.directError(error)
        }
    }

    /// The previous generation's keys after a rotation, nil before.
    func previousRatchetKeys() throws(KithError) -> LocalIdentityKeys? {
        guard let previous = identity.previousGeneration else { return nil }
        do {
            return try LocalIdentityKeys(identityKey: previous.signingKey, dhKey: previous.dhKey, pqKey: previous.pqKey, feedID: feedID.string)
        } catch {
            throw Self.directError(error)
        }
    }

    /// The session layer for this identity's current (and previous) keys.
    func directSessions() throws(KithError) -> DirectSessions {
        let local = try ratchetKeys()
        let previous = try previousRatchetKeys()
        do { return try DirectSessions(local: local, previous: previous) } catch { throw Self.directError(error) }
    }


    func peerIdentity(_ record: ContactRecord) throws(KithError) -> PeerIdentity {
        do {
            return try PeerIdentity(
                identityKey: try Base64URL.decode(record.identityKey, expectedLength: 32),
                pqKey: try Base64URL.decode(record.pqKey, expectedLength: RatchetConstants.mlkemPublicKeySize),
                feedID: record.feedID.string
            )
        } catch {
            throw Self.directError(error)
        }
    }

    static func directError(_ error: any Error) -> KithError {
        if let error = error as? RatchetError { return .invalidInput("direct message: \(error.description)") }
        return KithError.from(error)
    }
}

extension PrekeyPoolRecord {
    /// True when the contact holds fewer than 10 % of the last batch handed to them (the
    /// ratchet's low-water rule, ``PrekeyPoolStatus/isBelowLowWater``), or none was handed yet:
    /// time to refill at the next chance.
    public var needsRefill: Bool {
        lastBatchSize == 0 || PrekeyPoolStatus(remaining: handedRemaining, lastBatchSize: lastBatchSize).isBelowLowWater
    }
}
