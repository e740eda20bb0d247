import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithInvites
import KithStore
import Synchronization

/// The one path that writes to the account's feed, and the sealers of the feed-wide audiences.
extension Account {
    /// Appends an entry whose content `seal(sequence)` encrypts for its slot (see
    /// ``appendWithDirectState(plaintext:type:audience:seal:)``).
    func append(
        plaintext: [UInt8], type: String, audience: Audience, seal: (UInt32) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        try appendWithDirectState(plaintext: plaintext, type: type, audience: audience) { slot throws(KithError) in
            try seal(slot.sequence)
        }
    }

    /// The one path that writes to the account's feed: in one write transaction of the store
    /// (`FeedStore.appendOwn(feed:_:)`) it takes the next sequence, seals with `seal(slot)`,
    /// signs, and stores the envelope with its plaintext (sealed at rest) and, for a self message,
    /// its signed stub. The sequence is assigned under SQLite's write lock, so concurrent callers —
    /// other threads, other `Account`s or other processes on the same home — never sign the same
    /// sequence (no fork) and never skip one (no gap).
    ///
    /// `seal` runs under the write lock: it must not use the store except through
    /// ``OwnAppendSlot/directState``; read what it needs beforehand.
    ///
    /// With `rotatingTo`, the account's keys are replaced by the rotated ones under the same write
    /// lock, right after this entry (the announcement, signed by the old key) is signed: the next
    /// append, from any task, signs with the new key. If the write fails, the old keys stay.
    func appendWithDirectState(
        plaintext: [UInt8], type: String, audience: Audience, rotatingTo rotation: KeyState? = nil,
        seal: (OwnAppendSlot) throws(KithError) -> [UInt8]
    ) throws(KithError) -> Envelope {
        try appendMaking(type: type, audience: audience, rotatingTo: rotation) { slot throws(KithError) in (try seal(slot), plaintext) }
    }

    /// ``appendWithDirectState(plaintext:type:audience:rotatingTo:seal:)`` for content whose plaintext is only known
    /// under the write lock (a `group_event` carries the MLS message made there): `make` returns the sealed content
    /// and its plaintext.
    func appendMaking(
        type: String, audience: Audience, rotatingTo rotation: KeyState? = nil,
        make: (OwnAppendSlot) throws(KithError) -> (content: [UInt8], plaintext: [UInt8])
    ) throws(KithError) -> Envelope {
        try checkRestoredHead(appending: type)
        var written: Envelope?
        var replaced: KeyState?
        do throws(OwnAppendError<KithError>) {
            _ = try store.appendOwn(feed: feedID) { (slot: OwnAppendSlot) throws(KithError) -> OwnAppendEntry in
                // Under the write lock: nothing is appended once a move to another device began.
                try checkNotMoving()
                let made = try make(slot)
                let plaintext = made.plaintext
                let unsigned = UnsignedEnvelope(
                    sequence: slot.sequence, timestamp: clock(), previous: slot.previous, type: type, audience: audience, content: made.content
                )
                let signer = identity
                let envelope: Envelope
                let stub: SelfStub?
                do throws(FeedError) {
                    envelope = try Envelope.sign(unsigned, with: signer)
                    stub = audience == .selfOnly ? try SelfStub.sign(envelope, with: signer) : nil
                } catch {
                    throw .feed(error)
                }
                written = envelope
                let entry = OwnAppendEntry(
                    entry: envelope.canonicalBytes, decryptor: KnownPlaintextDecryptor(messageID: envelope.messageID, plaintext: plaintext),
                    selfStub: stub
                )
                if let rotation { replaced = keyState.withLock { state in defer { state = rotation }; return state } }
                return entry
            }
        } catch {
            if let replaced { keyState.withLock { $0 = replaced } }
            switch error {
            case .entry(let failure): throw failure
            case .store(.feed(let error)): throw .feed(error)
            case .store(let error): throw .store(error)
            }
        }
        guard let written else { throw .store(.database("the entry was not written")) }
        if type == Self.keyRotationType { clearRestoredHead() }
        hub.emit(.messagesStored(feed: feedID, messages: [written.messageID]))
        // A rotation lifts the restored-head guard: what a restore did not carry is re-established now.
        if type == Self.keyRotationType { _ = try? reestablishIfDueBlocking() }
        return written
    }

    /// A sealing function for the `self` and `contacts` audiences. What it needs from the store
    /// (the contacts keys, refreshed) is read now, so it can run under the append's write lock.
    func audienceSealer(_ plaintext: [UInt8], audience: Audience, onlyTo: Set<FeedID>? = nil) throws(KithError) -> (UInt32) throws(KithError) -> [UInt8] {
        let feedID = feedID
        switch audience {
        case .selfOnly:
            let key = identity.journalKey
            return { sequence throws(KithError) in
                do throws(FeedError) { return try SelfAudienceCipher.seal(plaintext, key: key, sequence: sequence, feedID: feedID) } catch { throw .feed(error) }
            }
        case .contacts:
            let keys = try contactsRecipientKeys(onlyTo: onlyTo)
            return { sequence throws(KithError) in
                do throws(ContactsCipherError) {
                    return try ContactsAudienceCipher.seal(plaintext, recipientKeys: keys, sequence: sequence, feedID: feedID)
                } catch {
                    throw .contacts(.cipher(error))
                }
            }
        case .direct:
            throw .input(.invalid("direct messages are sealed by the ratchet session (sendDirect)"))
        case .group:
            throw .input(.invalid("group messages are sealed by the group's MLS state (sendToGroup)"))
        case .oneTime:
            throw .input(.invalid("one-time messages are sealed to the peer's pool (sendOneTime)"))
        case .unknown(let text):
            throw .input(.invalid("cannot encrypt for unknown audience '\(text)'"))
        }
    }
}
