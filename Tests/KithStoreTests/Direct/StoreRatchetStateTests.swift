import KithIdentity
import KithRatchet
import Testing
@testable import KithStore

/// KithStore's implementation of KithRatchet's stores: it lives and dies with the transaction.
@Suite struct StoreRatchetStateTests {
    typealias S = StoreFixtures
    struct Crash: Error {}

    static func keys(_ identity: Identity) throws -> LocalIdentityKeys {
        try LocalIdentityKeys(identityKey: identity.signingKey, dhKey: identity.dhKey, pqKey: identity.pqKey, feedID: identity.feedID.string)
    }

    /// Bob's store with Alice as a contact and 5 one-time prekeys handed to her; Alice's session
    /// layer and in-memory stores holding that batch.
    static func setup() throws -> (store: FeedStore, alice: FeedID, bob: DirectSessions, aliceSide: DirectSessions,
                                    aliceSessions: InMemorySessionStore, alicePrekeys: InMemoryPeerPrekeyStore) {
        let store = try ContactStoreTests.localStore(S.bob)
        try ContactStoreTests.add(S.alice, to: store)
        let alice = try FeedID(S.alice.feedID.string)
        let batch = try store.withDirectState { access in try access.ratchet.generateOneTimePrekeys(count: 5, forPeer: alice) }
        let alicePrekeys = InMemoryPeerPrekeyStore()
        try alicePrekeys.addPeerPrekeys(batch, forPeer: try FeedID(S.bob.feedID.string))
        return (store, alice, try DirectSessions(local: keys(S.bob)), try DirectSessions(local: keys(S.alice)), InMemorySessionStore(), alicePrekeys)
    }

    static func send(_ text: String, sequence: UInt64, from side: DirectSessions, sessions: InMemorySessionStore, prekeys: InMemoryPeerPrekeyStore)
        throws -> (wire: [UInt8], context: DirectMessageContext) {
        let bob = try keys(S.bob)
        let context = try DirectMessageContext.direct(from: side.local.feedID, to: bob.feedID, sequence: sequence)
        let wire = try side.encrypt(
            Array(text.utf8), to: try bob.peerIdentity, signedPrekey: Array(bob.dhKey.publicKey.rawRepresentation), context: context,
            sessions: sessions, peerPrekeys: prekeys
        )
        return (wire, context)
    }

    @Test func openingRollsBackWithTheTransaction() throws {
        let (store, alice, bob, aliceSide, aliceSessions, alicePrekeys) = try Self.setup()
        let alicePeer = try Self.keys(S.alice).peerIdentity
        let first = try Self.send("first", sequence: 1, from: aliceSide, sessions: aliceSessions, prekeys: alicePrekeys)

        // Opened, prekey consumed, session saved, then the transaction throws: nothing stays.
        #expect(throws: StoreError.self) {
            try store.withDirectState { access throws in
                let plaintext = try bob.open(first.wire, context: first.context, from: alicePeer, sessions: access.ratchet, prekeys: access.ratchet, now: 0)
                #expect(plaintext == Array("first".utf8))
                #expect(try access.ratchet.status(forPeer: alice).remaining == 4)
                #expect(try access.ratchet.sessionRecord(with: alice) != nil)
                throw Crash()
            }
        }
        try store.withDirectState { access throws in
            #expect(try access.ratchet.sessionRecord(with: alice) == nil)
            #expect(try access.ratchet.status(forPeer: alice) == PrekeyPoolStatus(remaining: 5, lastBatchSize: 5))
            #expect(try access.ratchet.oneTimePrekey(id: 1, forPeer: alice) != nil)
        }

        // Committed: the prekey is gone for good and the session is stored.
        let opened = try store.withDirectState { access throws in
            try bob.open(first.wire, context: first.context, from: alicePeer, sessions: access.ratchet, prekeys: access.ratchet, now: 0)
        }
        #expect(opened == Array("first".utf8))
        let committed = try store.withDirectState { access throws in
            #expect(try access.ratchet.status(forPeer: alice).remaining == 4)
            #expect(try access.ratchet.oneTimePrekey(id: 1, forPeer: alice) == nil)
            return try access.ratchet.sessionRecord(with: alice)
        }
        #expect(committed != nil)

        // An advanced session that is not committed leaves the stored one as it was.
        let second = try Self.send("second", sequence: 2, from: aliceSide, sessions: aliceSessions, prekeys: alicePrekeys)
        #expect(throws: StoreError.self) {
            try store.withDirectState { access throws in
                _ = try bob.open(second.wire, context: second.context, from: alicePeer, sessions: access.ratchet, prekeys: access.ratchet, now: 0)
                #expect(try access.ratchet.sessionRecord(with: alice) != committed)
                throw Crash()
            }
        }
        #expect(try store.withDirectState { access in try access.ratchet.sessionRecord(with: alice) } == committed)
    }

    @Test func sendingRollsBackWithTheTransaction() throws {
        let (store, alice, bob, _, _, _) = try Self.setup()
        let handed = try OneTimePrekeyBatch(entries: [OneTimePrekeyPublic(id: 7, publicKey: Array(S.alice.dhKey.publicKey.rawRepresentation))])
        try store.withDirectState { access in try access.ratchet.addPeerPrekeys(handed, forPeer: alice) }
        let alicePeer = try Self.keys(S.alice).peerIdentity
        let context = try DirectMessageContext.direct(from: bob.local.feedID, to: alice.string, sequence: 1)
        #expect(throws: StoreError.self) {
            try store.withDirectState { access throws in
                _ = try bob.encrypt(
                    [1, 2, 3], to: alicePeer, signedPrekey: Array(S.alice.dhKey.publicKey.rawRepresentation), context: context,
                    sessions: access.ratchet, peerPrekeys: access.ratchet
                )
                #expect(try access.ratchet.peerPrekeyCount(forPeer: alice) == 0)
                throw Crash()
            }
        }
        try store.withDirectState { access throws in
            #expect(try access.ratchet.peerPrekeyCount(forPeer: alice) == 1)
            #expect(try access.ratchet.nextPeerPrekey(forPeer: alice) == handed.entries.first)
            #expect(try access.ratchet.sessionRecord(with: alice) == nil)
        }
    }

    @Test func storageFailuresAreTyped() throws {
        let (store, _, _, _, _, _) = try Self.setup()
        let stranger = FeedID(ed25519PublicKey: [UInt8](repeating: 9, count: 32))
        let record = SessionRecord(current: try RatchetSession.initiate(
            local: try Self.keys(S.bob),
            bundle: try PrekeyBundle(peer: try Self.keys(S.alice).peerIdentity, signedPrekey: Array(S.alice.dhKey.publicKey.rawRepresentation), oneTimePrekey: nil)
        ))
        try store.withDirectState { access throws in
            do throws(RatchetError) {
                try access.ratchet.saveSessionRecord(record, with: stranger)  // not a contact: foreign key
                Issue.record("saving a session with a stranger succeeded")
            } catch {
                guard case .storage = error else { Issue.record("expected .storage, got \(error)"); return }
            }
        }
    }

    @Test func prekeyPoolIsBoundedAndIDsNeverRepeat() throws {
        let (store, alice, _, _, _, _) = try Self.setup()
        try store.withDirectState { access throws in
            let next = try access.ratchet.generateOneTimePrekeys(count: 3, forPeer: alice)
            #expect(next.entries.map(\.id) == [6, 7, 8])
            _ = try access.ratchet.consumeOneTimePrekey(id: 6, forPeer: alice)
            #expect(throws: RatchetError.unknownOneTimePrekey(id: 6)) { try access.ratchet.consumeOneTimePrekey(id: 6, forPeer: alice) }
            #expect(throws: RatchetError.prekeyPoolFull(limit: RatchetConstants.maxOneTimePrekeys)) {
                try access.ratchet.generateOneTimePrekeys(count: RatchetConstants.maxOneTimePrekeys, forPeer: alice)
            }
            #expect(try access.ratchet.status(forPeer: alice) == PrekeyPoolStatus(remaining: 7, lastBatchSize: 3))
        }
    }
}
