import Crypto
import KithCanonical
import KithFeed
import KithIdentity
import KithStore
import KithTDF

/// The inner circle (docs/TDF.md): one-time messages (`audience = "otk:{peer_feed_id}"`) whose
/// `content_enc` is a NanoTDF to a key of the pool the peer handed over while the two synced in
/// person. Each key is used once: marked used in the transaction that appends the message, and
/// deleted by the peer in the transaction that decrypts it.
///
/// ```swift
/// try await alice.circle.add(bob.feedID)           // both sides, then sync in person
/// try await alice.circle.send("just us", to: bob.feedID)
/// try await bob.circle.process()             // also done after every sync and import
/// try await alice.circle.revoke(bob.feedID)          // both pools gone; Bob is told at the next sync
/// ```
extension Account {
    /// The pool size each side generates by default.
    public static let defaultCirclePoolSize = OneTimeKeyPool.defaultSize

    // MARK: Sending

    func sendOneTimeBlocking(_ content: Content, to contact: FeedID) throws(KithError) -> Envelope {
        let plaintext: [UInt8]
        do { plaintext = try content.canonicalBytes() } catch { throw .feed(error) }
        let local = feedID
        var low: OneTimePoolAccess.TakenKey?
        let envelope = try appendWithDirectState(plaintext: plaintext, type: content.type, audience: .oneTime(contact)) { slot throws(KithError) in
            let taken: OneTimePoolAccess.TakenKey
            do throws(OneTimePoolError) {
                taken = try slot.oneTimePools.takeNextPeerKey(peer: contact.string)
            } catch {
                throw .circle(error)
            }
            if taken.crossedRenewalThreshold { low = taken }
            return try Self.sealOneTime(plaintext, to: taken.publicKey, from: local, to: contact, sequence: slot.sequence)
        }
        if let low { hub.emit(.circlePoolLow(contact, remaining: low.remaining, capacity: low.capacity)) }
        return envelope
    }

    /// The NanoTDF of one message: KAS locator = shared resource directory named by the author's
    /// feed id with the key id as identifier, encrypted policy = ``oneTimePolicy(from:to:sequence:)``.
    static func sealOneTime(_ plaintext: [UInt8], to publicKey: [UInt8], from local: FeedID, to peer: FeedID, sequence: UInt32) throws(KithError) -> [UInt8] {
        try sealOneTimeNano(plaintext, to: publicKey, from: local, policy: oneTimePolicy(from: local, to: peer, sequence: sequence)).serialized
    }

    /// A NanoTDF to one pool key: the KAS locator names the author and the key id, the policy is encrypted.
    static func sealOneTimeNano(_ plaintext: [UInt8], to publicKey: [UInt8], from local: FeedID, policy: [UInt8]) throws(KithError) -> NanoTDF {
        do throws(NanoTDFError) {
            let key = try NanoTDF.PublicKey(curve: .secp256r1, compressedRepresentation: publicKey, field: "one-time key")
            let id = OneTimeKeyID(compressedPublicKey: publicKey)
            let kas = try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: local.string, identifier: id.bytes)
            return try NanoTDF.encrypt(plaintext, to: key, configuration: .init(kas: kas, policy: .encrypted(policy)))
        } catch {
            throw .circle(.invalidPool("the peer's one-time key is unusable: \(error)"))
        }
    }

    /// The encrypted policy of a one-time message: it names author, recipient and sequence, so a
    /// NanoTDF cannot be carried into another envelope.
    static func oneTimePolicy(from author: FeedID, to recipient: FeedID, sequence: UInt32) -> [UInt8] {
        Array("kith-otk-v1|\(author.string)|\(recipient.string)|\(sequence)".utf8)
    }

    // MARK: Receiving

    @discardableResult
    func processOneTimeMessagesBlocking() throws(KithError) -> DirectOpenReport {
        let local = feedID
        let report: DirectOpenReport
        do {
            report = try store.openOneTimeMessages(to: local) { envelope, access in
                try Self.openOneTime(envelope, to: local, access: access)
            }
        } catch {
            throw .store(error)
        }
        if !report.opened.isEmpty { hub.emit(.oneTimeMessagesOpened(report.opened)) }
        return report
    }

    /// Opens one message: key by id from the pool shared with the author, payload and policy
    /// checked, then the key deleted (only after everything verified).
    static func openOneTime(_ envelope: Envelope, to local: FeedID, access: OneTimePoolAccess) throws -> [UInt8] {
        let nano = try NanoTDF(parsing: try envelope.contentBytes())
        guard let id = OneTimeKeyID(bytes: nano.header.kas.identifier) else { throw OneTimeKeyPoolError.missingKeyID }
        let raw = try access.ownPrivateKey(peer: envelope.feedID.string, keyID: id.bytes)
        let key = NanoTDF.PrivateKey.p256(try P256.KeyAgreement.PrivateKey(rawRepresentation: raw))
        let plaintext = try nano.decrypt(using: key)
        let expected = oneTimePolicy(from: envelope.feedID, to: local, sequence: envelope.sequence)
        guard ConstantTime.equals(try nano.policy(using: key), expected) else {
            throw OneTimeKeyPoolError.policyMismatch
        }
        try access.deleteOwnKey(peer: envelope.feedID.string, keyID: id.bytes)
        return plaintext
    }
}

extension Account.Circle {
    /// Arms a pool exchange with `contact` for the next (or ongoing) sync session between the two
    /// (both sides arm; the exchange runs in the session's side phase). Replaces a pending revocation.
    public func add(_ contact: FeedID, poolSize: Int = Account.defaultCirclePoolSize) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            guard (1...PoolExchangeMessage.maximumKeys).contains(poolSize) else {
                throw .circle(.invalidPool("pool size \(poolSize) is outside 1...\(PoolExchangeMessage.maximumKeys)"))
            }
            do throws(OneTimePoolError) {
                try account.store.withOneTimePools { pools throws(OneTimePoolError) in
                    try pools.setIntent(.exchange(poolSize: poolSize), peer: record.feedID.string)
                }
            } catch {
                throw .circle(error)
            }
        }
    }

    /// Revokes trust: deletes both pools shared with `contact` at once (nothing more can be sent
    /// or read with them) and records that the contact is told at the next sync session. Returns
    /// false when no pool was shared.
    @discardableResult
    public func revoke(_ contact: FeedID) async throws(KithError) -> Bool {
        try await BlockingWork.run { () throws(KithError) in
            do throws(OneTimePoolError) {
                return try account.store.withOneTimePools { pools throws(OneTimePoolError) in
                    let had = try pools.revoke(peer: contact.string)
                    try pools.setIntent(.revoke, peer: contact.string)
                    return had
                }
            } catch {
                throw .circle(error)
            }
        }
    }

    /// The pools and intents of every inner-circle contact.
    public func status() async throws(KithError) -> [CircleMember] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(OneTimePoolError) {
                return try account.store.withOneTimePools { pools throws(OneTimePoolError) in
                    let statuses = try pools.statuses()
                    let intents = try pools.intents()
                    var members = statuses.map { CircleMember(feedID: $0.peer, pools: $0, intent: intents[$0.peer]) }
                    for (peer, intent) in intents where !statuses.contains(where: { $0.peer == peer }) {
                        members.append(CircleMember(feedID: peer, pools: nil, intent: intent))
                    }
                    return members.sorted { $0.feedID < $1.feedID }
                }
            } catch {
                throw .circle(error)
            }
        }
    }

    /// Sends text to an inner-circle contact under the next one-time key of their pool.
    @discardableResult
    public func send(_ text: String, to contact: FeedID) async throws(KithError) -> Envelope {
        try await send(.post(Post(body: text)), to: contact)
    }

    /// Sends content to an inner-circle contact: the next unused key of the pool they gave is
    /// marked used in the transaction that appends the envelope, so two messages never share a
    /// key and a failed append uses none.
    /// - Throws: ``KithError/circle(_:)`` with `OneTimePoolError.noPool` (never
    ///   exchanged, or revoked), `OneTimePoolError.pending` or
    ///   `OneTimePoolError.exhausted`.
    @discardableResult
    public func send(_ content: Content, to contact: FeedID) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.sendOneTimeBlocking(content, to: contact) }
    }

    /// Decrypts every one-time message addressed to this account that is not decrypted yet; each
    /// key is deleted in the transaction that stores the content, so a replay finds no key.
    /// Messages that do not open (no pool, unknown or used key, tampered) are recorded with their
    /// reason, never retried, and leave the pools unchanged. Called after every sync and import.
    @discardableResult
    public func process() async throws(KithError) -> DirectOpenReport {
        try await BlockingWork.run { () throws(KithError) in try account.processOneTimeMessagesBlocking() }
    }
}
