import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import KithInvites
import KithStore

/// Contact exchange, cards, introductions, profiles and the contacts audience's keys.
extension Account {
    // MARK: Cards

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

    func ownProfileBlocking() throws(KithError) -> ProfileUpdate? {
        do throws(StoreError) { return try store.latestProfile(of: feedID) } catch { throw .store(error) }
    }

    func displayNameBlocking(of feed: FeedID) -> String {
        if feed == feedID { return "me" }
        if let record = try? store.contact(feed) { return record.shownName }
        return String(feed.string.prefix(8))
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
        return try send(object: content.jsonObject, audience: .contacts, onlyTo: [target.feedID])
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
}

extension Account.Contacts {
    /// This identity's contact card, signed now. The name defaults to the latest own profile name.
    public func card(displayName: String? = nil) async throws(KithError) -> ContactCard {
        try await BlockingWork.run { () throws(KithError) in try account.contactCardBlocking(displayName: displayName) }
    }

    /// Verifies a card (signature, feed id, age) and adds its holder as a contact.
    ///
    /// - Parameters:
    ///   - cardText: the card as text (base64url, as a QR code or NFC carries it).
    ///   - name: a local name for the contact (used by commands that take a contact).
    ///   - maxAge: the oldest card accepted, in seconds.
    @discardableResult
    public func add(cardText: String, name: String? = nil, maxAge: Int64 = ContactCardLimits.defaultMaxAge) async throws(KithError) -> ContactRecord {
        let card: ContactCard
        do throws(ContactCardError) {
            card = try ContactCard(text: cardText)
            try card.checkAge(now: account.clock(), maxAge: maxAge)
        } catch {
            throw .contacts(.card(error))
        }
        return try await add(card: card, name: name)
    }

    /// Adds the holder of an already verified card as a contact.
    ///
    /// The card is checked against the feed's verified key chain (docs/FEED-FORMAT.md 11.1): a
    /// card claiming a feed already relied on with another key throws
    /// ``KithError/store(_:)`` with `StoreError.contactKeyConflict(feed:cardKey:chainKey:)`
    /// (exit code 2) and changes nothing; a rotated identity met for the first time is stored with
    /// `ContactRecord.keyIsVerified` false until its rotation entries are held.
    @discardableResult
    public func add(card: ContactCard, name: String? = nil) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in try account.addContactBlocking(card: card, name: name) }
    }

    /// Every contact.
    public func all() async throws(KithError) -> [ContactRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.contacts() } catch { throw .store(error) }
        }
    }

    /// The contact record of `feed`, nil when it is not a contact.
    public func record(_ feed: FeedID) async throws(KithError) -> ContactRecord? {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.contact(feed) } catch { throw .store(error) }
        }
    }

    /// A contact by feed id, local name or display name: the lookup behind a UI's search field
    /// or a command-line argument. Every other method takes the contact's `FeedID`.
    public func resolve(_ text: String) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in try account.resolveContactBlocking(text) }
    }

    /// Removes a contact: later contacts messages are not encrypted for them.
    @discardableResult
    public func remove(_ contact: FeedID) async throws(KithError) -> ContactRecord {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            do throws(StoreError) { try account.store.removeContact(record.feedID) } catch { throw .store(error) }
            account.hub.emit(.contactRemoved(record.feedID))
            return record
        }
    }

    /// People introduced by contacts, not met yet.
    public func introductions() async throws(KithError) -> [IntroductionRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.introductions() } catch { throw .store(error) }
        }
    }

    /// The name to show for a feed: "me", a contact's name, or a short feed id.
    public func displayName(of feed: FeedID) async -> String {
        await (try? BlockingWork.run { () throws(KithError) in account.displayNameBlocking(of: feed) }) ?? String(feed.string.prefix(8))
    }

    /// Introduces contact `introduced` to contact `recipient` (spec 5.4): a contact_introduction
    /// encrypted for `recipient` alone (and the author).
    @discardableResult
    public func introduce(_ introduced: FeedID, to recipient: FeedID, note: String? = nil) async throws(KithError) -> Envelope {
        try await BlockingWork.run { () throws(KithError) in try account.introduceBlocking(introduced, to: recipient, note: note) }
    }

    /// Every contact with the contacts key shared with them, for nearby discovery's beacon keys
    /// (KithNearby). Package access only: the keys are secret and no app API.
    package func withKeys() async throws(KithError) -> [(record: ContactRecord, key: SymmetricKey)] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) {
                let keys = try account.store.contactsKeys()
                return try account.store.contacts().compactMap { record in
                    keys.first { $0.feedID == record.feedID }.map { (record, $0.key) }
                }
            } catch {
                throw .store(error)
            }
        }
    }
}
