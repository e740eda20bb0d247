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
