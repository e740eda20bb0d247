@testable import Kith
import KithFeed
import KithIdentity
@testable import KithStore
import KithSync
import Testing

/// Two identities who met: each store follows itself and holds the other as a contact.
private struct MetPair {
    let alice: Identity
    let bob: Identity
    let aliceStore: FeedStore
    let bobStore: FeedStore

    init() throws {
        alice = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
        bob = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))
        aliceStore = try Self.store(for: alice)
        bobStore = try Self.store(for: bob)
        try Self.add(bob, to: aliceStore, as: alice)
        try Self.add(alice, to: bobStore, as: bob)
    }

    static func store(for me: Identity) throws -> FeedStore {
        let store = try FeedStore(path: nil, storageKey: me.storageKey)
        try store.follow(identityKey: me.publicKeys.identityKey, isLocal: true)
        return store
    }

    static func add(_ identity: Identity, to store: FeedStore, as me: Identity) throws {
        let card = try ContactCard.create(identity: identity, displayName: "", createdAt: 1_790_000_000)
        let key = try ContactsKey.derive(myDHKey: me.dhKey, theirDHKey: card.publicKeys.dhKey, myFeed: me.feedID, theirFeed: card.feedID)
        try store.addContact(card: card, contactsKey: key, localName: nil, addedAt: 1_790_000_100)
    }

    /// A signed chain (content stored as given: these tests never decrypt it).
    static func chain(_ count: Int, identity: Identity, selfAt: Set<Int> = []) throws -> [Envelope] {
        var out: [Envelope] = []
        var last: MessageID?
        for index in 0..<count {
            let content = Content.post(Post(body: "post \(index) " + String(repeating: "x", count: 300)))
            let envelope = try Envelope.sign(
                UnsignedEnvelope(
                    sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last, type: content.type,
                    audience: selfAt.contains(index) ? .selfOnly : .contacts, content: try content.canonicalBytes()
                ),
                with: identity
            )
            last = envelope.messageID
            out.append(envelope)
        }
        return out
    }
}

/// Runs one session between two store sources over a simulated link; contacts' dh keys are the Noise static keys.
private func sync(
    _ alice: Identity, _ aliceSource: StoreSyncSource, _ bob: Identity, _ bobSource: StoreSyncSource,
    configuration: SimulatedBLEConfiguration = SimulatedBLEConfiguration()
) async throws -> (SyncSessionReport, SyncSessionReport) {
    let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
    async let bobReport: SyncSessionReport = {
        let link = try await SecureLink.accept(
            over: peripheral,
            configuration: SecureLinkConfiguration(localStatic: bob.dhKey) { await bobSource.isContact(staticKey: $0) }
        )
        return await SyncSession(link: link, source: bobSource, clock: peripheral).run()
    }()
    let link = try await SecureLink.connect(
        over: central,
        configuration: SecureLinkConfiguration(localStatic: alice.dhKey) { await aliceSource.isContact(staticKey: $0) },
        responderStaticKey: Array(bob.dhKey.publicKey.rawRepresentation)
    )
    let aliceReport = await SyncSession(link: link, source: aliceSource, clock: central).run()
    return (aliceReport, try await bobReport)
}

@Suite("StoreSyncSource (FeedStore as a sync source)", .timeLimit(.minutes(3)))
struct StoreSyncSourceTests {
    @Test("two contacts sync their feeds; self messages travel as stubs; a second session sends nothing")
    func contactsSync() async throws {
        let pair = try MetPair()
        let aliceChain = try MetPair.chain(12, identity: pair.alice, selfAt: [4])
        let bobChain = try MetPair.chain(5, identity: pair.bob)
        #expect(try pair.aliceStore.ingest(aliceChain.map(\.canonicalBytes)).acceptedCount == 12)
        // The author signs the stubs that replicate in place of its self messages.
        let ownStubs = try aliceChain.filter { $0.audience == .selfOnly }.map { try SelfStub.sign($0, with: pair.alice) }
        try pair.aliceStore.saveOwnStubs(ownStubs)
        #expect(try pair.bobStore.ingest(bobChain.map(\.canonicalBytes)).acceptedCount == 5)
        let aliceSource = StoreSyncSource(store: pair.aliceStore)
        let bobSource = StoreSyncSource(store: pair.bobStore)

        let (aliceReport, bobReport) = try await sync(pair.alice, aliceSource, pair.bob, bobSource)
        #expect(aliceReport.completed && bobReport.completed)
        #expect(bobReport.messagesAccepted == 12 && bobReport.messagesInvalid == 0)
        #expect(aliceReport.messagesAccepted == 5)
        #expect(try pair.bobStore.head(of: pair.alice.feedID)?.sequence == 11)
        #expect(try pair.aliceStore.head(of: pair.bob.feedID)?.sequence == 4)
        // The self message reached Bob as its stub only.
        let relayed = try pair.bobStore.export(feed: pair.alice.feedID, forPeer: false)
        #expect(relayed[4] == ownStubs.first { $0.sequence == 4 }?.canonicalBytes)
        #expect(relayed[5] == aliceChain[5].canonicalBytes)
        #expect(ChainVerifier(identityKey: pair.alice.publicKeys.identityKey).verify(lines: relayed).isValid)

        let (again, _) = try await sync(pair.alice, aliceSource, pair.bob, bobSource)
        #expect(again.completed && again.messagesSent == 0 && again.messagesAccepted == 0)
        // New sources (a new process) forget acknowledgements: have_seq alone limits what is sent.
        let state = try await StoreSyncSource(store: pair.bobStore).followedFeeds(for: SyncPeer(staticKey: Array(pair.alice.dhKey.publicKey.rawRepresentation)))
        #expect(state.map(\.haveSequence).sorted { ($0 ?? 0) < ($1 ?? 0) } == [4, 11])
        let (fresh, freshBob) = try await sync(pair.alice, StoreSyncSource(store: pair.aliceStore), pair.bob, StoreSyncSource(store: pair.bobStore))
        #expect(fresh.completed && fresh.messagesSent == 0 && freshBob.messagesSent == 0)
    }

    @Test("outgoing reads only the delta above have_seq, newest first, with the priority of its recorded type")
    func deltaAbove() async throws {
        let pair = try MetPair()
        let chain = try MetPair.chain(40, identity: pair.alice)
        _ = try pair.aliceStore.ingest(chain.map(\.canonicalBytes))
        let source = StoreSyncSource(store: pair.aliceStore, decryptor: nil, entryPage: 16)
        let bob = SyncPeer(staticKey: Array(pair.bob.dhKey.publicKey.rawRepresentation))
        let feed = pair.alice.feedID
        _ = try await source.followedFeeds(for: bob)
        let batch = try #require(try await source.outgoing(feed: feed, above: 36, for: bob))
        #expect(batch.latestSequence == 39)
        #expect(batch.envelopes.map(\.sequence) == [39, 38, 37])
        #expect(batch.envelopes.map(\.bytes) == [chain[39], chain[38], chain[37]].map(\.canonicalBytes))
        #expect(batch.envelopes.allSatisfy { $0.priority == .content })
        // Longer than a page of the store read: still every entry, newest first.
        let all = try #require(try await source.outgoing(feed: feed, above: nil, for: bob))
        #expect(all.envelopes.map(\.sequence) == Array((0..<40).reversed()).map(UInt32.init))
        #expect(try await source.outgoing(feed: feed, above: 39, for: bob)?.envelopes.isEmpty == true)
        #expect(StoreSyncSource.priority(ofType: "key_rotation") == .keyMaterial)
        #expect(StoreSyncSource.priority(ofType: "group_event") == .keyMaterial)
        #expect(StoreSyncSource.priority(ofType: "tombstone") == .lowUrgency)
        #expect(StoreSyncSource.priority(ofType: "profile_update") == .lowUrgency)
        #expect(StoreSyncSource.priority(ofType: "post") == .content && StoreSyncSource.priority(ofType: nil) == .content)
    }

    @Test("the contact set is read when a session starts: a removed contact is refused from the next session on")
    func contactReadPerSession() async throws {
        let pair = try MetPair()
        _ = try pair.aliceStore.ingest(try MetPair.chain(3, identity: pair.alice).map(\.canonicalBytes))
        let source = StoreSyncSource(store: pair.aliceStore)
        let bob = SyncPeer(staticKey: Array(pair.bob.dhKey.publicKey.rawRepresentation))
        let feed = pair.alice.feedID
        #expect(try await source.followedFeeds(for: bob).count == 2)
        try await pair.aliceStore.database.write { try $0.execute(sql: "DELETE FROM contacts") }
        // Within the session, the contact read at its start holds.
        #expect(try await source.outgoing(feed: feed, above: nil, for: bob)?.envelopes.count == 3)
        // The next session reads the contacts again.
        #expect(try await source.followedFeeds(for: bob).isEmpty)
        #expect(try await source.outgoing(feed: feed, above: nil, for: bob) == nil)
    }

    @Test("an interrupted session resumes and completes the chain")
    func resumes() async throws {
        let pair = try MetPair()
        let aliceChain = try MetPair.chain(30, identity: pair.alice)
        _ = try pair.aliceStore.ingest(aliceChain.map(\.canonicalBytes))
        let aliceSource = StoreSyncSource(store: pair.aliceStore)
        let bobSource = StoreSyncSource(store: pair.bobStore)
        let (first, _) = try await sync(
            pair.alice, aliceSource, pair.bob, bobSource, configuration: SimulatedBLEConfiguration(disconnectAfterBytes: 6_000)
        )
        #expect(!first.completed)
        let (second, _) = try await sync(pair.alice, aliceSource, pair.bob, bobSource)
        #expect(second.completed)
        #expect(try pair.bobStore.head(of: pair.alice.feedID)?.sequence == 29)
    }

    @Test("a non-contact is refused, and asks for and receives nothing")
    func strangersAreRefused() async throws {
        let pair = try MetPair()
        _ = try pair.aliceStore.ingest(try MetPair.chain(3, identity: pair.alice).map(\.canonicalBytes))
        let mallory = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0x66, count: 32)))
        let aliceSource = StoreSyncSource(store: pair.aliceStore)
        let stranger = SyncPeer(staticKey: Array(mallory.dhKey.publicKey.rawRepresentation))
        #expect(!(await aliceSource.isContact(staticKey: stranger.staticKey)))
        #expect(await aliceSource.isContact(staticKey: Array(pair.bob.dhKey.publicKey.rawRepresentation)))
        #expect(try await aliceSource.followedFeeds(for: stranger).isEmpty)
        let feed = pair.alice.feedID
        #expect(try await aliceSource.outgoing(feed: feed, above: nil, for: stranger) == nil)

        let malloryStore = try MetPair.store(for: mallory)
        try MetPair.add(pair.alice, to: malloryStore, as: mallory)
        // Bob (the responder) does not know Mallory: he refuses her before sending anything.
        let (bobError, _) = try await syncRefused(mallory, StoreSyncSource(store: malloryStore), pair.bob, StoreSyncSource(store: pair.bobStore))
        #expect(bobError == .peerNotAllowed)
    }

    @Test("invalid envelopes are acknowledged invalid and not stored")
    func invalidIngest() async throws {
        let pair = try MetPair()
        let bobSource = StoreSyncSource(store: pair.bobStore)
        let peer = SyncPeer(staticKey: Array(pair.alice.dhKey.publicKey.rawRepresentation))
        let good = try MetPair.chain(1, identity: pair.alice)[0].canonicalBytes
        var bad = good
        bad[bad.count / 2] ^= 0x01
        let results = try await bobSource.ingest(
            [ReceivedMessage(messageID: SyncMessageID(envelope: good), envelope: good), ReceivedMessage(messageID: SyncMessageID(envelope: bad), envelope: bad)],
            from: peer
        )
        #expect(results == [.accepted, .invalid])
        #expect(try await bobSource.ingest([ReceivedMessage(messageID: SyncMessageID(envelope: good), envelope: good)], from: peer) == [.duplicate])
    }

    /// Issue 11, item 16: a failed transaction is a local failure, not "the peer's messages are
    /// invalid"; a failed read is not "no contacts" or "nothing to offer".
    @Test("store failures throw instead of reading as invalid, no contacts or nothing held")
    func storeFailuresThrow() async throws {
        let pair = try MetPair()
        let bobSource = StoreSyncSource(store: pair.bobStore)
        let alice = SyncPeer(staticKey: Array(pair.alice.dhKey.publicKey.rawRepresentation))
        let good = try MetPair.chain(1, identity: pair.alice)[0].canonicalBytes
        let feed = pair.alice.feedID
        #expect(bobSource.feedID(of: good) == feed)
        try await pair.bobStore.database.write { try $0.execute(sql: "DROP TABLE messages") }
        await #expect(throws: SyncSourceError.self) {
            _ = try await bobSource.ingest([ReceivedMessage(messageID: SyncMessageID(envelope: good), envelope: good)], from: alice)
        }
        await #expect(throws: SyncSourceError.self) { _ = try await bobSource.outgoing(feed: feed, above: nil, for: alice) }
        try await pair.bobStore.database.write { try $0.execute(sql: "DROP TABLE contacts") }
        await #expect(throws: SyncSourceError.self) { _ = try await bobSource.followedFeeds(for: alice) }
    }
}

/// Connects with IK to a responder that does not know the initiator; returns the initiator's handshake error.
private func syncRefused(_ initiator: Identity, _ source: StoreSyncSource, _ responder: Identity, _ responderSource: StoreSyncSource) async throws -> (SecureLinkError?, Void) {
    let (central, peripheral) = SimulatedBLELink.makePair()
    async let accepted: SecureLinkError? = {
        do {
            _ = try await SecureLink.accept(
                over: peripheral,
                configuration: SecureLinkConfiguration(localStatic: responder.dhKey) { await responderSource.isContact(staticKey: $0) }
            )
            return nil
        } catch let error as SecureLinkError {
            return error
        } catch {
            return nil
        }
    }()
    _ = try? await SecureLink.connect(
        over: central,
        configuration: SecureLinkConfiguration(localStatic: initiator.dhKey) { _ in true },
        responderStaticKey: Array(responder.dhKey.publicKey.rawRepresentation)
    )
    return (await accepted, ())
}

@Suite("StoreSyncSource with a self-audience genesis", .timeLimit(.minutes(3)))
struct StoreSyncGenesisStubTests {
    @Test("a feed whose genesis is a self message (the profile kith init writes) links on the receiver")
    func genesisStub() async throws {
        let pair = try MetPair()
        let chain = try MetPair.chain(40, identity: pair.alice, selfAt: [0])
        _ = try pair.aliceStore.ingest(chain.map(\.canonicalBytes))
        try pair.aliceStore.saveOwnStubs([SelfStub.sign(chain[0], with: pair.alice)])
        let (report, bobReport) = try await sync(pair.alice, StoreSyncSource(store: pair.aliceStore), pair.bob, StoreSyncSource(store: pair.bobStore))
        #expect(report.completed && bobReport.messagesAccepted == 40)
        let head = try pair.bobStore.head(of: pair.alice.feedID)?.sequence
        #expect(head == 39)
    }
}
