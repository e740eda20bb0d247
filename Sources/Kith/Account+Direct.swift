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
    /// The advanced session is stored (sealed) before the envelope, so a crash in between can
    /// only skip a message number, never reuse a message key. When the one-time prekeys handed
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

    private func sealAndAppendDirect(plaintext: [UInt8], type: String, to record: ContactRecord) throws(KithError) -> Envelope {
        let peer = try peerIdentity(record)
        let local = try ratchetKeys()
        let localFeed = feedID.string
        let dhKey = record.dhKey
        let audience = Audience.direct(record.feedID)
        return try appendWithDirectState(plaintext: plaintext, type: type, audience: audience) { slot throws(KithError) in
            do {
                let context = try DirectMessageContext.direct(from: localFeed, to: peer.feedID, sequence: UInt64(slot.sequence))
                return try { (access: DirectSessionAccess) throws -> [UInt8] in
                    var usedPrekey: UInt32?
                    let record: SessionRecord
                    if let state = try access.sessionState(peer: peer.feedID) {
                        record = try SessionRecord.decode(state).updatingPeerPQKey(peer.pqKey)
                    } else {
                        let oneTime = try access.firstPeerPrekey(peer: peer.feedID)
                        let bundle = try PrekeyBundle(
                            peer: peer, signedPrekey: try Base64URL.decode(dhKey, expectedLength: 32),
                            oneTimePrekey: oneTime.map { OneTimePrekeyPublic(id: $0.id, publicKey: $0.publicKey) }
                        )
                        record = SessionRecord(current: try RatchetSession.initiate(local: local, bundle: bundle))
                        usedPrekey = oneTime?.id
                    }
                    let (wire, next) = try record.encrypt(plaintext, context: context)
                    try access.saveSessionState(next.encoded, peer: peer.feedID)
                    if let usedPrekey { try access.removePeerPrekey(peer: peer.feedID, id: usedPrekey) }
                    return wire
                }(slot.directState)
            } catch {
                throw Self.directError(error)
            }
        }
    }

    // MARK: Receiving

    /// Decrypts every direct message addressed to this identity that is not decrypted yet, in
    /// feed order, each exactly once (session update and sealed content commit together).
    ///
    /// Called by every import; call it after a sync. Messages of people who are not contacts
    /// wait (they become readable once the card is added); messages that fail (tampered,
    /// replayed, unknown prekey) are recorded with their reason and not retried.
    @discardableResult
    public func processDirectMessages() throws(KithError) -> DirectOpenReport {
        let local = try ratchetKeys()
        let previous = try previousRatchetKeys()
        let now = UInt64(max(0, clock()))
        do {
            return try store.openDirectMessages(to: feedID) { envelope, access in
                guard let keys = try access.contactKeys(peer: envelope.feedID.string) else { return nil }
                let peer = try PeerIdentity(
                    identityKey: try Base64URL.decode(keys.identityKey, expectedLength: 32),
                    pqKey: try Base64URL.decode(keys.pqKey, expectedLength: RatchetConstants.mlkemPublicKeySize),
                    feedID: envelope.feedID.string
                )
                let plaintext: [UInt8]
                do {
                    plaintext = try Self.openDirect(envelope, from: peer, local: local, access: access, now: now)
                } catch {
                    // Written before the contact saw our rotation: their session still targets
                    // our previous keys.
                    guard let previous else { throw error }
                    plaintext = try Self.openDirect(envelope, from: peer, local: previous, access: access, now: now)
                }
                if case .prekeyBatch(let content)? = try? Content.parse(plaintext, envelopeType: envelope.type) {
                    let batch = try OneTimePrekeyBatch.decode(content.batchBytes)
                    try access.addPeerPrekeys(batch.entries.map { ($0.id, $0.publicKey) }, peer: peer.feedID)
                }
                return plaintext
            }
        } catch {
            throw .store(error)
        }
    }

    /// Opens one direct message with the stored session record (a prekey message may start a
    /// new session; see ``SessionRecord/receive(_:record:context:local:peer:prekeys:now:entropy:)``).
    static func openDirect(
        _ envelope: Envelope, from peer: PeerIdentity, local: LocalIdentityKeys, access: DirectSessionAccess, now: UInt64
    ) throws -> [UInt8] {
        let context = try DirectMessageContext(feedID: envelope.feedID.string, sequence: UInt64(envelope.sequence), audience: envelope.audience.description)
        let wire = try envelope.contentBytes()
        let record = try access.sessionState(peer: peer.feedID).map { bytes throws(RatchetError) in
            try SessionRecord.decode(bytes).updatingPeerPQKey(peer.pqKey)
        }
        var oneTime: (id: UInt32, key: Curve25519.KeyAgreement.PrivateKey)?
        if DirectMessageWire.isPrekeyMessage(wire), let id = try DirectMessageWire.decode(wire).wire.prelude?.oneTimePrekeyID,
           let raw = try access.ownPrekey(peer: peer.feedID, id: id) {
            oneTime = (id, try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw))
        }
        let received = try SessionRecord.receive(
            wire, record: record, context: context, local: local, peer: peer, prekeys: SinglePrekeyStore(key: oneTime), now: now
        )
        try access.saveSessionState(received.record.encoded, peer: peer.feedID)
        if let id = received.consumedOneTimePrekey { try access.consumeOwnPrekey(peer: peer.feedID, id: id) }
        return received.plaintext
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
        do {
            return try store.withDirectState { access in
                let held = try access.ownPrekeyCount(peer: record.feedID.string)
                guard held + count <= RatchetConstants.maxOneTimePrekeys else {
                    throw KithError.invalidInput(
                        "\(record.shownName) already holds \(held) unused prekeys; at most \(RatchetConstants.maxOneTimePrekeys) in total"
                    )
                }
                let first = try access.nextOwnPrekeyID(peer: record.feedID.string)
                guard UInt64(first) + UInt64(count) < UInt64(UInt32.max) else { throw KithError.invalidInput("prekey ids exhausted for this contact") }
                var privates: [(id: UInt32, privateKey: [UInt8])] = []
                var publics: [OneTimePrekeyPublic] = []
                for offset in 0..<UInt32(count) {
                    let key = Curve25519.KeyAgreement.PrivateKey()
                    privates.append((first + offset, Array(key.rawRepresentation)))
                    publics.append(OneTimePrekeyPublic(id: first + offset, publicKey: Array(key.publicKey.rawRepresentation)))
                }
                try access.storeOwnPrekeys(privates, peer: record.feedID.string)
                return try OneTimePrekeyBatch(entries: publics)
            }
        } catch {
            throw Self.directError(error)
        }
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
        do {
            try store.withDirectState { access in
                try access.addPeerPrekeys(handover.batch.entries.map { ($0.id, $0.publicKey) }, peer: record.feedID.string)
            }
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

/// Hands `RatchetSession.respond` the one one-time prekey a prekey message names; the account
/// deletes it from SQLite in the same transaction once the message authenticated.
struct SinglePrekeyStore: PrekeyStore {
    let key: (id: UInt32, key: Curve25519.KeyAgreement.PrivateKey)?

    func generateOneTimePrekeys(count: Int, forPeer peer: String) throws(RatchetError) -> OneTimePrekeyBatch {
        throw .prekeyPoolFull(limit: 0)
    }

    func oneTimePrekey(id: UInt32, forPeer peer: String) -> Curve25519.KeyAgreement.PrivateKey? {
        key.flatMap { $0.id == id ? $0.key : nil }
    }

    func consumeOneTimePrekey(id: UInt32, forPeer peer: String) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        guard let found = oneTimePrekey(id: id, forPeer: peer) else { throw .unknownOneTimePrekey(id: id) }
        return found
    }

    func status(forPeer peer: String) -> PrekeyPoolStatus { PrekeyPoolStatus(remaining: key == nil ? 0 : 1, lastBatchSize: 1) }
}

extension PrekeyPoolRecord {
    /// True when the contact holds fewer than 10 % of the last batch handed to them (the
    /// ratchet's low-water rule, ``PrekeyPoolStatus/isBelowLowWater``), or none was handed yet:
    /// time to refill at the next chance.
    public var needsRefill: Bool {
        lastBatchSize == 0 || PrekeyPoolStatus(remaining: handedRemaining, lastBatchSize: lastBatchSize).isBelowLowWater
    }
}
