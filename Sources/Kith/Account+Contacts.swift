import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithInvites
import KithStore

/// Contact exchange, the contacts audience, profiles, reactions, tombstones, introductions and
/// attachments (issue #6).
extension Account {
    // MARK: Cards

    /// This identity's contact card, signed now. The name defaults to the latest own profile name.
    public func contactCard(displayName: String? = nil) async throws(KithError) -> ContactCard {
        try await BlockingWork.run { () throws(KithError) in try self.contactCardBlocking(displayName: displayName) }
    }

    func contactCardBlocking(displayName: String?) throws(KithError) -> ContactCard {
        let name: String
        if let displayName { name = displayName } else { name = try ownProfileBlocking()?.displayName ?? "" }
        let inviteKey = try inviteSigningKey().publicKey
        do throws(ContactCardError) {
            return try ContactCard.create(identity: identity, displayName: name, createdAt: clock(), extensions: [.inviteKey(inviteKey)])
        } catch {
            throw .contacts(.card(error))
        }
    }

    /// Verifies a card (signature, feed id, age) and adds its holder as a contact.
    ///
    /// - Parameters:
    ///   - cardText: the card as text (base64url, as a QR code or NFC carries it).
    ///   - name: a local name for the contact (used by commands that take a contact).
    ///   - maxAge: the oldest card accepted, in seconds.
    @discardableResult
    public func addContact(cardText: String, name: String? = nil, maxAge: Int64 = ContactCardLimits.defaultMaxAge) async throws(KithError) -> ContactRecord {
        let card: ContactCard
        do throws(ContactCardError) {
            card = try ContactCard(text: cardText)
            try card.checkAge(now: clock(), maxAge: maxAge)
        } catch {
            throw .contacts(.card(error))
        }
        return try await addContact(card: card, name: name)
    }

    /// Adds the holder of an already verified card as a contact.
    ///
    /// The card is checked against the feed's verified key chain (docs/FEED-FORMAT.md 11.1): a
    /// card claiming a feed already relied on with another key throws
    /// ``KithError/store(_:)`` with `StoreError.contactKeyConflict(feed:cardKey:chainKey:)`
    /// (exit code 2) and changes nothing; a rotated identity met for the first time is stored with
    /// `ContactRecord.keyIsVerified` false until its rotation entries are held.
    @discardableResult
    public func addContact(card: ContactCard, name: String? = nil) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in try self.addContactBlocking(card: card, name: name) }
    }

    func addContactBlocking(card: ContactCard, name: String?) throws(KithError) -> ContactRecord {
        guard card.feedID != feedID else { throw .contacts(.ownCard) }
        let pendingName = try checkPendingContact(for: card)
        let name = name ?? pendingName ?? nil
        if let name {
            guard !name.isEmpty, TextLength.scalars(name) <= FeedLimits.maxDisplayName else { throw .contacts(.invalidName) }
        }
        let key: SymmetricKey
        do throws(ContactsCipherError) {
            key = try ContactsKey.derive(myDHKey: identity.dhKey, theirDHKey: card.publicKeys.dhKey, myFeed: feedID, theirFeed: card.feedID)
        } catch {
            throw .contacts(.cipher(error))
        }
        do throws(StoreError) {
            try store.addContact(card: card, contactsKey: key, localName: name, addedAt: clock())
            // Their posts imported before the cards were exchanged become readable now.
            _ = try store.decryptHeldMessages(of: card.feedID, decryptor: decryptor)
        } catch {
            throw .store(error)
        }
        try processDirectMessagesBlocking()
        let record = try contactRecordBlocking(card.feedID)
        hub.emit(.contactAdded(record.feedID))
        return record
    }

    /// Every contact.
    public func contacts() async throws(KithError) -> [ContactRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.contacts() } catch { throw .store(error) }
        }
    }

    /// The contact record of `feed`, nil when it is not a contact.
    public func contact(_ feed: FeedID) async throws(KithError) -> ContactRecord? {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.contact(feed) } catch { throw .store(error) }
        }
    }

    /// A contact by feed id, local name or display name: the lookup behind a UI's search field
    /// or a command-line argument. Every other method takes the contact's `FeedID`.
    public func resolveContact(_ text: String) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in try self.resolveContactBlocking(text) }
    }

    func resolveContactBlocking(_ text: String) throws(KithError) -> ContactRecord {
        let record: ContactRecord?
        do throws(StoreError) { record = try store.resolveContact(text) } catch { throw .store(error) }
        guard let record else { throw .contacts(.notFound(text)) }
        return record
    }

    /// The contact record of `feed`.
    ///
    /// - Throws: ``KithError/contacts(_:)`` with ``ContactError/notAContact(_:)`` when `feed` is
    ///   not a contact.
    func contactRecordBlocking(_ feed: FeedID) throws(KithError) -> ContactRecord {
        let record: ContactRecord?
        do throws(StoreError) { record = try store.contact(feed) } catch { throw .store(error) }
        guard let record else { throw .contacts(.notAContact(feed)) }
        return record
    }

    /// Removes a contact: later contacts messages are not encrypted for them.
    @discardableResult
    public func removeContact(_ contact: FeedID) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in
            let record = try self.contactRecordBlocking(contact)
            do throws(StoreError) { try self.store.removeContact(record.feedID) } catch { throw .store(error) }
            self.hub.emit(.contactRemoved(record.feedID))
            return record
        }
    }

    /// People introduced by contacts, not met yet.
    public func introductions() async throws(KithError) -> [IntroductionRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.introductions() } catch { throw .store(error) }
        }
    }

    /// Key rotations seen, with their verification state.
    public func keyRotations(feed: FeedID? = nil) async throws(KithError) -> [KeyRotationRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.keyRotations(feed: feed) } catch { throw .store(error) }
        }
    }

    /// The latest profile this account published, if any.
    public func ownProfile() async throws(KithError) -> ProfileUpdate? {
        try await BlockingWork.run { () throws(KithError) in try self.ownProfileBlocking() }
    }

    func ownProfileBlocking() throws(KithError) -> ProfileUpdate? {
        do throws(StoreError) { return try store.latestProfile(of: feedID) } catch { throw .store(error) }
    }

    /// The name to show for a feed: "me", a contact's name, or a short feed id.
    public func displayName(of feed: FeedID) async -> String {
        await (try? BlockingWork.run { () throws(KithError) in self.displayNameBlocking(of: feed) }) ?? String(feed.string.prefix(8))
    }

    func displayNameBlocking(of feed: FeedID) -> String {
        if feed == feedID { return "me" }
        if let record = try? store.contact(feed) { return record.shownName }
        return String(feed.string.prefix(8))
    }

    // MARK: Authoring

    /// Posts text with encrypted attachments (at most 4). Each attachment is encrypted under its
    /// own key and stored as a blob; the post lists the blob hashes in `attachments` and their
    /// keys in `attachment_keys`.
    @discardableResult
    public func post(_ text: String, audience: Audience, attachments: [[UInt8]]) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try self.postBlocking(text, audience: audience, attachments: attachments) }
    }

    func postBlocking(_ text: String, audience: Audience, attachments: [[UInt8]]) throws(KithError) -> Envelope {
        guard attachments.count <= FeedLimits.maxAttachments else {
            throw .input(.invalid("\(attachments.count) attachments; at most \(FeedLimits.maxAttachments)"))
        }
        if attachments.isEmpty { return try publishBlocking(.post(Post(body: text)), audience: audience) }
        var hashes: [JSONValue] = []
        var keys: [JSONValue] = []
        for data in attachments {
            let sealed = try storeSealedBlob(data)
            hashes.append(.string(sealed.contentHash))
            keys.append(.string(sealed.key))
        }
        var object = Content.post(Post(body: text)).jsonObject
        object["attachments"] = .array(hashes)
        object["attachment_keys"] = .array(keys)
        return try publish(object: object, audience: audience)
    }

    /// Decrypts attachment `index` of a readable post held here.
    public func attachment(of message: MessageID, index: Int) async throws(KithError) -> [UInt8] {
        try await BlockingWork.run { () throws(KithError) in try self.attachmentBlocking(of: message, index: index) }
    }

    func attachmentBlocking(of message: MessageID, index: Int) throws(KithError) -> [UInt8] {
        let object: JSONObject?
        do throws(StoreError) { object = try store.contentObject(message) } catch { throw .store(error) }
        guard let object,
              let hashes = object["attachments"]?.arrayValue, let keys = object["attachment_keys"]?.arrayValue,
              index >= 0, index < hashes.count, index < keys.count,
              let hash = hashes[index].stringValue, let key = keys[index].stringValue else {
            throw .input(.invalid("message \(message) has no readable attachment \(index)"))
        }
        let blob: [UInt8]?
        do throws(StoreError) { blob = try store.blob(hash) } catch { throw .store(error) }
        guard let blob else { throw .input(.invalid("attachment \(hash) is not held here yet")) }
        do throws(ContactsCipherError) {
            return try BlobCipher.open(blob, contentHash: hash, key: key)
        } catch {
            throw .contacts(.cipher(error))
        }
    }

    /// Reacts to a message (spec 5.2), for the contacts audience by default.
    @discardableResult
    public func react(to target: MessageID, emoji: String, audience: Audience = .contacts) async throws(KithError) -> Envelope {
        guard Reaction.isSingleEmoji(emoji) else { throw .input(.invalid("'\(emoji)' is not a single emoji")) }
        return try await publish(.reaction(Reaction(targetMessage: target, emoji: emoji)), audience: audience)
    }

    /// Publishes a profile update (spec 5.3) to contacts; an avatar is stored as an encrypted blob.
    @discardableResult
    public func setProfile(displayName: String?, avatar: [UInt8]? = nil) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try self.setProfileBlocking(displayName: displayName, avatar: avatar) }
    }

    func setProfileBlocking(displayName: String?, avatar: [UInt8]?) throws(KithError) -> Envelope {
        var object = Content.profileUpdate(ProfileUpdate(displayName: displayName)).jsonObject
        if let avatar {
            let sealed = try storeSealedBlob(avatar)
            object["avatar_hash"] = .string(sealed.contentHash)
            object["avatar_key"] = .string(sealed.key)
        }
        return try publish(object: object, audience: .contacts)
    }

    /// Retracts one of this account's messages (spec 5.7) with a tombstone in the same audience.
    @discardableResult
    public func delete(_ target: MessageID, reason: RetractionReason? = .retracted) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try self.deleteBlocking(target, reason: reason) }
    }

    func deleteBlocking(_ target: MessageID, reason: RetractionReason?) throws(KithError) -> Envelope {
        let held: StoredMessage?
        do throws(StoreError) { held = try store.message(target) } catch { throw .store(error) }
        guard let held, held.feedID == feedID else { throw .input(.invalid("message \(target) is not one of yours")) }
        let audience = (try? Audience(held.audience)) ?? .contacts
        let useAudience: Audience = audience == .selfOnly ? .selfOnly : .contacts
        return try publishBlocking(.tombstone(Tombstone(targetMessage: target, reason: reason?.rawValue)), audience: useAudience)
    }

    /// Introduces contact `introduced` to contact `recipient` (spec 5.4): a contact_introduction
    /// encrypted for `recipient` alone (and the author).
    @discardableResult
    public func introduce(_ introduced: FeedID, to recipient: FeedID, note: String? = nil) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try self.introduceBlocking(introduced, to: recipient, note: note) }
    }

    func introduceBlocking(_ introduced: FeedID, to recipient: FeedID, note: String?) throws(KithError) -> Envelope {
        let person = try contactRecordBlocking(introduced)
        let target = try contactRecordBlocking(recipient)
        guard person.feedID != target.feedID else { throw .contacts(.introductionToThemselves) }
        for record in [person, target] where !record.keyIsVerified {
            throw .contacts(.unverified(name: record.shownName, record.feedID))
        }
        let content = Content.contactIntroduction(ContactIntroduction(
            introducedFeedID: person.feedID, introducedDHKey: person.dhKey, introducedPQKey: person.pqKey, note: note
        ))
        return try publish(object: content.jsonObject, audience: .contacts, onlyTo: [target.feedID])
    }

    /// Imports a contact's exported feed, verified with the identity key from the contact record.
    public func importContactFeed(lines: [[UInt8]], contact: FeedID) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in
            let record = try self.contactRecordBlocking(contact)
            let followedKey: IdentityPublicKey?
            do throws(StoreError) { followedKey = try self.store.identityKey(of: record.feedID) } catch { throw .store(error) }
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
            return try self.importFeedBlocking(lines: lines, identityKey: originalKey, progress: { _ in })
        }
    }

    /// Imports exported lines of a followed feed (a contact's, or one imported before), verified
    /// with the identity key already on record; the key is found from the first entry's feed id.
    public func importKnownFeed(lines: [[UInt8]], progress: @escaping @Sendable (IngestProgress) -> Void = { _ in }) async throws(KithError) -> IngestReport {
        try await BlockingWork.run { () throws(KithError) in try self.importKnownFeedBlocking(lines: lines, progress: progress) }
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

    /// Every encrypted blob held here, for handing to a peer with the feed (they are useless
    /// without the keys inside the posts that reference them).
    public func exportBlobs() async throws(KithError) -> [[UInt8]] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) {
                var blobs: [[UInt8]] = []
                for hash in try self.store.blobHashes() {
                    if let blob = try self.store.blob(hash) { blobs.append(blob) }
                }
                return blobs
            } catch {
                throw .store(error)
            }
        }
    }

    /// Stores a blob received from a peer (kept by content hash; unreferenced ones are collected).
    @discardableResult
    public func importBlob(_ blob: [UInt8]) async throws(KithError) -> String {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.putBlob(blob) } catch { throw .store(error) }
        }
    }

    /// Every contact with the contacts key shared with them, for nearby discovery's beacon keys
    /// (KithNearby). Package access only: the keys are secret and no app API.
    package func contactsWithKeys() async throws(KithError) -> [(record: ContactRecord, key: SymmetricKey)] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) {
                let keys = try self.store.contactsKeys()
                return try self.store.contacts().compactMap { record in
                    keys.first { $0.feedID == record.feedID }.map { (record, $0.key) }
                }
            } catch {
                throw .store(error)
            }
        }
    }

    // MARK: Internals

    /// The keys a contacts message is sealed for: the author's own slot and every verified,
    /// current contact (or only `onlyTo`); stale contacts keys are re-derived first.
    func contactsRecipientKeys(onlyTo: Set<FeedID>? = nil) throws(KithError) -> [SymmetricKey] {
        try refreshStaleContactsKeys()
        var keys = [ContactsKey.selfSlotKey(journalKey: identity.journalKey)]
        let held: [(feedID: FeedID, key: SymmetricKey)]
        do throws(StoreError) { held = try store.contactsKeys() } catch { throw .store(error) }
        for (feed, key) in held where onlyTo?.contains(feed) ?? true {
            keys.append(key)
        }
        return keys
    }

    /// Re-derives contacts keys that a contact's verified dh rotation made stale.
    func refreshStaleContactsKeys() throws(KithError) {
        let stale: [ContactRecord]
        do throws(StoreError) { stale = try store.staleContacts() } catch { throw .store(error) }
        for record in stale {
            let key = try contactsKey(for: record)
            do throws(StoreError) { try store.updateContactsKey(record.feedID, key: key) } catch { throw .store(error) }
        }
    }

    /// The contacts key shared with a contact, derived from this identity's current dh key and
    /// the dh key on their record.
    func contactsKey(for record: ContactRecord) throws(KithError) -> SymmetricKey {
        let theirs: Curve25519.KeyAgreement.PublicKey
        do {
            theirs = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: try Base64URL.decode(record.dhKey, expectedLength: 32))
        } catch {
            throw .contacts(.damagedRecord(record.feedID, reason: "dh_key: \(error)"))
        }
        do throws(ContactsCipherError) {
            return try ContactsKey.derive(myDHKey: identity.dhKey, theirDHKey: theirs, myFeed: feedID, theirFeed: record.feedID)
        } catch {
            throw .contacts(.cipher(error))
        }
    }

    /// Encrypts an attachment or avatar under its own key and stores the blob.
    func storeSealedBlob(_ data: [UInt8]) throws(KithError) -> BlobCipher.Sealed {
        let sealed: BlobCipher.Sealed
        do throws(ContactsCipherError) { sealed = try BlobCipher.seal(data) } catch { throw .contacts(.cipher(error)) }
        do throws(StoreError) { _ = try store.putBlob(sealed.blob) } catch { throw .store(error) }
        return sealed
    }

    /// Publishes a content object that may carry fields beyond its typed form (attachment keys).
    /// The object must parse as valid content of its type.
    func publish(object: JSONObject, audience: Audience, onlyTo: Set<FeedID>? = nil) throws(KithError) -> Envelope {
        let plaintext = CanonicalJSON.serialize(object)
        guard let type = object["type"]?.stringValue else { throw .input(.invalid("content has no type")) }
        guard plaintext.count <= FeedLimits.maxContentJSONBytes else { throw .input(.invalid("content too large")) }
        do throws(FeedError) { _ = try Content.parse(plaintext, envelopeType: type) } catch { throw .feed(error) }
        if case .direct(let peer) = audience { return try sendDirectBlocking(plaintext: plaintext, type: type, to: peer) }
        guard audience == .selfOnly || audience == .contacts else {
            throw KithError.notYetSupported("audience '\(audience)' is not available for this content")
        }
        let seal = try audienceSealer(plaintext, audience: audience, onlyTo: onlyTo)
        return try append(plaintext: plaintext, type: type, audience: audience, seal: seal)
    }
}

extension Account {
    /// The compact form of `card` (this identity's own card), for a QR code: keys, name, a commitment to `card`'s
    /// bytes and a signature. The holder of the compact card completes the contact with exactly `card`.
    ///
    /// `card` is kept under the compact card's commitment (with the cards strangers' invites commit to), so a peer
    /// that scanned the compact card gets exactly this card over the first secure link (the card phase,
    /// docs/FEED-FORMAT.md 11.9).
    public func compactContactCard(for card: ContactCard) async throws(KithError) -> CompactContactCard {
        let compact: CompactContactCard
        do throws(CompactContactCardError) {
            compact = try CompactContactCard.create(identity: identity, card: card)
        } catch {
            throw .contacts(.compactCard(error))
        }
        try await BlockingWork.run { () throws(KithError) in
            try self.withGroupStore { access throws(KithError) in
                try self.groupStoreCall(access.saveInviteCard(card.encoded, commitment: Base64URL.encode(compact.commitment)))
            }
        }
        return compact
    }

    /// Verifies a scanned compact card and keeps it as a pending contact until the full card it commits to is added
    /// (``addContact(cardText:name:maxAge:)`` then checks the commitment). Scanning again replaces it.
    @discardableResult
    public func addPendingContact(compactText: String, name: String? = nil) async throws(KithError) -> PendingContactRecord {
        let compact: CompactContactCard
        do throws(CompactContactCardError) {
            compact = try CompactContactCard(text: compactText)
        } catch {
            throw .contacts(.compactCard(error))
        }
        return try await BlockingWork.run { () throws(KithError) in
            guard compact.feedID != self.feedID else { throw .contacts(.ownCard) }
            if let name {
                guard !name.isEmpty, TextLength.scalars(name) <= FeedLimits.maxDisplayName else { throw .contacts(.invalidName) }
            }
            let now = self.clock()
            do throws(StoreError) {
                try self.store.addPendingContact(compact, localName: name, scannedAt: now)
            } catch {
                throw .store(error)
            }
            return PendingContactRecord(compactCard: compact, localName: name, scannedAt: now)
        }
    }

    /// Scanned compact cards still waiting for their full card, most recent first.
    public func pendingContacts() async throws(KithError) -> [PendingContactRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try self.store.pendingContacts() } catch { throw .store(error) }
        }
    }

    /// Checks `card` against the pending contact of its feed, if one was scanned: the full card must be the one the
    /// compact card commits to. Returns the local name given at the scan.
    func checkPendingContact(for card: ContactCard) throws(KithError) -> String?? {
        let pending: PendingContactRecord?
        do throws(StoreError) { pending = try store.pendingContact(card.feedID) } catch { throw .store(error) }
        guard let pending else { return .none }
        do throws(CompactContactCardError) {
            _ = try pending.compactCard.complete(with: card)
        } catch {
            throw .contacts(.compactCard(error))
        }
        return .some(pending.localName)
    }
}
