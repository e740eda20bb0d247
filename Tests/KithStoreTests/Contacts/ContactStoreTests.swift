import Crypto
import Foundation
import GRDB
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

@Suite struct ContactStoreTests {
    typealias S = StoreFixtures
    static let carol = try! Identity(seed: try! Seed(bytes: [UInt8](repeating: 0xC0, count: 32)))

    static func card(_ identity: Identity, _ name: String = "") throws -> ContactCard {
        try ContactCard.create(identity: identity, displayName: name, createdAt: 1_790_000_000)
    }

    static func localStore(_ me: Identity = S.bob) throws -> FeedStore {
        let store = try FeedStore(path: nil, storageKey: me.storageKey)
        try store.follow(identityKey: me.publicKeys.identityKey, isLocal: true)
        return store
    }

    static func add(_ identity: Identity, to store: FeedStore, as me: Identity = S.bob, name: String? = nil) throws {
        let card = try card(identity, "card name")
        let key = try ContactsKey.derive(myDHKey: me.dhKey, theirDHKey: card.publicKeys.dhKey, myFeed: me.feedID, theirFeed: card.feedID)
        try store.addContact(card: card, contactsKey: key, localName: name, addedAt: 1_790_000_100)
    }

    @Test func addsListsAndResolvesContacts() throws {
        let store = try Self.localStore()
        try Self.add(S.alice, to: store, name: "Ali")
        try Self.add(Self.carol, to: store)
        let all = try store.contacts()
        #expect(all.count == 2)
        let alice = try #require(try store.contact(S.alice.feedID))
        #expect(alice.localName == "Ali")
        #expect(alice.displayName == "card name")
        #expect(alice.dhKey == S.alice.publicKeys.dhKeyString)
        #expect(try store.resolveContact("ali")?.feedID == S.alice.feedID)
        #expect(try store.resolveContact(S.alice.feedID.string)?.feedID == S.alice.feedID)
        #expect(try store.resolveContact("nobody") == nil)
        // Two contacts named "card name" by their cards: the name is ambiguous.
        #expect(throws: StoreError.self) { try store.resolveContact("card name") }
        // Adding a contact follows their feed.
        #expect(try store.identityKey(of: S.alice.feedID) != nil)
    }

    /// Every row that decides or uses a feed's keys, for "nothing changed" checks.
    static func keyRows(_ store: FeedStore) throws -> [String] {
        try store.database.read { db in
            try ["SELECT feed_id, identity_key_pub FROM feeds", "SELECT feed_id, from_sequence, identity_key_pub, verified FROM feed_keys",
                 "SELECT message_id, verified FROM key_rotations", "SELECT * FROM contacts", "SELECT * FROM contact_dh_keys"].flatMap { sql in
                try Row.fetchAll(db, sql: sql + " ORDER BY 1, 2").map { $0.description }
            }
        }
    }

    @Test func aCardClaimingAContactsFeedWithAnotherKeyIsRefusedAndChangesNothing() throws {
        let store = try Self.localStore()
        try Self.add(S.alice, to: store, name: "Alice")
        let before = try Self.keyRows(store)
        // Carol's keys, Alice's feed id and Alice's original key in extension 0x0004, signed by Carol.
        let forged = try ContactCard.create(identity: Self.carol, displayName: "Alice", createdAt: 1_790_000_000, originalIdentityKey: S.alice.publicKeys.identityKey)
        #expect(forged.feedID == S.alice.feedID)
        let key = try ContactsKey.derive(myDHKey: S.bob.dhKey, theirDHKey: forged.publicKeys.dhKey, myFeed: S.bob.feedID, theirFeed: forged.feedID)
        #expect {
            try store.addContact(card: forged, contactsKey: key, localName: nil, addedAt: 1_790_000_200)
        } throws: { error in
            guard case StoreError.contactKeyConflict(let feed, let cardKey, let chainKey)? = error as? StoreError else { return false }
            return feed == S.alice.feedID.string && cardKey == Self.carol.publicKeys.identityKeyString
                && chainKey == S.alice.publicKeys.identityKeyString
        }
        #expect(try Self.keyRows(store) == before)
        // Alice's own entries still verify with her key.
        let report = try store.ingest(S.lines(S.chain(2)))
        #expect(report.acceptedCount == 2)
    }

    @Test func aRotatedCardForAnUnknownFeedIsHeldUnverified() throws {
        let store = try Self.localStore()
        let forged = try ContactCard.create(identity: Self.carol, displayName: "Alice", createdAt: 1_790_000_000, originalIdentityKey: S.alice.publicKeys.identityKey)
        let key = try ContactsKey.derive(myDHKey: S.bob.dhKey, theirDHKey: forged.publicKeys.dhKey, myFeed: S.bob.feedID, theirFeed: forged.feedID)
        try store.addContact(card: forged, contactsKey: key, localName: "Alice?", addedAt: 1_790_000_200)
        let record = try #require(try store.contact(S.alice.feedID))
        #expect(!record.keyIsVerified)
        // The feed keeps its original key; nothing is encrypted for the claimed keys.
        #expect(try store.identityKey(of: S.alice.feedID)?.rawRepresentation == S.alice.publicKeys.identityKey.rawRepresentation)
        #expect(try store.contactsKeys().isEmpty)
        #expect(try store.contactIdentityKeys().isEmpty)
        #expect(try store.contactDHKeys().isEmpty)
        let feedKeys = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feed_keys") }
        #expect(feedKeys == 0)
        // Alice's entries (no rotation) ingest with her original key; the claim stays unverified.
        #expect(try store.ingest(S.lines(S.chain(2))).acceptedCount == 2)
        #expect(try store.contact(S.alice.feedID)?.keyIsVerified == false)
        // Now that entries are held, another unproven key for the feed is refused...
        let other = try ContactCard.create(identity: S.bob, displayName: "x", createdAt: 1_790_000_000, originalIdentityKey: S.alice.publicKeys.identityKey)
        #expect(throws: StoreError.self) {
            try store.addContact(card: other, contactsKey: key, localName: nil, addedAt: 1_790_000_300)
        }
        // ...and Alice's own card replaces the claim as a verified contact.
        try Self.add(S.alice, to: store)
        let verified = try #require(try store.contact(S.alice.feedID))
        #expect(verified.keyIsVerified && verified.identityKey == S.alice.publicKeys.identityKeyString)
        #expect(verified.displayName == "card name" && verified.localName == "Alice?")
        #expect(try store.contactsKeys().count == 1)
    }

    @Test func aRotatedCardBecomesVerifiedWhenTheFeedsRotationIsIngested() throws {
        let store = try Self.localStore()
        let rotated = ContentEffectsTests.alice2
        let card = try ContactCard.create(identity: rotated, displayName: "Alice", createdAt: 1_790_000_000, originalIdentityKey: S.alice.publicKeys.identityKey)
        let key = try ContactsKey.derive(myDHKey: S.bob.dhKey, theirDHKey: card.publicKeys.dhKey, myFeed: S.bob.feedID, theirFeed: card.feedID)
        try store.addContact(card: card, contactsKey: key, localName: "Alice", addedAt: 1_790_000_100)
        #expect(try store.contact(S.alice.feedID)?.keyIsVerified == false)
        #expect(try store.contactsKeys().isEmpty)
        let chain = try ContentEffectsTests.chain([
            (.post(Post(body: "before")), S.alice),
            (try ContentEffectsTests.rotation(to: rotated, signedBy: S.alice), S.alice),
            (.post(Post(body: "after")), rotated),
        ])
        let report = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        #expect(report.acceptedCount == 3)
        let record = try #require(try store.contact(S.alice.feedID))
        #expect(record.keyIsVerified && record.identityKey == rotated.publicKeys.identityKeyString)
        #expect(try store.contactsKeys().map(\.key) == [key])
    }

    @Test func contactsKeysAreSealedAtRest() throws {
        let store = try Self.localStore()
        try Self.add(S.alice, to: store)
        let expected = try ContactsKey.derive(myDHKey: S.bob.dhKey, theirDHKey: S.alice.dhKey.publicKey, myFeed: S.bob.feedID, theirFeed: S.alice.feedID)
        let keys = try store.contactsKeys()
        #expect(keys.count == 1 && keys[0].key == expected)
        let column = try store.database.read { db in try String.fetchOne(db, sql: "SELECT contacts_key FROM contacts") }
        let raw = expected.withUnsafeBytes { Base64URL.encode($0) }
        #expect(column?.hasPrefix("s1.") == true)
        #expect(column?.contains(raw) == false)
        // Another identity's storage key cannot open it.
        let foreign = FeedStore(database: store.database, sealer: ContentSealer(storageKey: S.alice.storageKey))
        #expect(throws: StoreError.self) { try foreign.contactsKeys() }
    }

    @Test func removingAContactDeletesItsKey() throws {
        let store = try Self.localStore()
        try Self.add(S.alice, to: store)
        #expect(try store.removeContact(S.alice.feedID))
        #expect(try store.contacts().isEmpty)
        #expect(try store.contactsKeys().isEmpty)
        #expect(try store.contactDHKeys().isEmpty)
        #expect(try !store.removeContact(S.alice.feedID))
    }

    @Test func staleKeysAreSkippedUntilReplaced() throws {
        let store = try Self.localStore()
        try Self.add(S.alice, to: store)
        try store.database.write { db in try db.execute(sql: "UPDATE contacts SET key_stale = 1") }
        #expect(try store.contactsKeys().isEmpty)
        #expect(try store.contact(S.alice.feedID)?.keyIsStale == true)
        try store.updateContactsKey(S.alice.feedID, key: SymmetricKey(size: .bits256))
        #expect(try store.contactsKeys().count == 1)
    }

    @Test func migrationAddsTheContactsTables() throws {
        let store = try Self.localStore()
        let tables = try store.database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        for name in ["contact_dh_keys", "contact_introductions", "key_rotations"] { #expect(tables.contains(name)) }
    }
}
