import Crypto
import Dispatch
import Kith
import KithFeed
import KithIdentity
import KithStore
import KithSync

/// The store side of a sync session (issue 12, item 6): Alice's store holds a 10,000-message
/// feed and Bob's all but the last 10, both as ``StoreSyncSource``s of contacts.
///
/// - `sync.store_delta_10_of_10000_serve_ms`: what serving that delta costs Alice's source
///   (followed feeds, servable feeds, the outgoing batch above Bob's `have_seq`), wall time,
///   best of 5;
/// - `sync.store_whole_feed_export_ms`: the whole-feed export plus per-envelope parse that
///   serving cost before (``FeedStore/export(feed:forPeer:)`` and ``Envelope/parseV1(_:)`` of
///   every line), for comparison, best of 5;
/// - `sync.store_delta_session_cpu_ms`: process CPU of a whole session between the two stores
///   over the simulated link (both sides: handshake, opening, serving, ingest, acks);
/// - `sync.store_statements_per_session`: SQL statements Alice's store ran in that session.
enum SyncStoreAccess {
    static let feedLength = 10_000
    static let delta = 10

    static func run(report: (BenchFigure) -> Void) async throws {
        let alice = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xA1, count: 32)))
        let bob = try Identity(seed: try Seed(bytes: [UInt8](repeating: 0xB0, count: 32)))
        let aliceStore = try store(for: alice)
        let bobStore = try store(for: bob)
        try add(bob, to: aliceStore, as: alice)
        try add(alice, to: bobStore, as: bob)
        let chain = try signedChain(feedLength, identity: alice)
        _ = try aliceStore.ingest(streaming: chain)
        _ = try bobStore.ingest(streaming: chain.prefix(feedLength - delta))

        let feed = alice.feedID
        let bobPeer = SyncPeer(staticKey: Array(bob.dhKey.publicKey.rawRepresentation))
        let have = UInt32(feedLength - delta - 1)
        var serve: [Double] = []
        var export: [Double] = []
        for _ in 0..<5 {
            let source = StoreSyncSource(store: aliceStore)
            let start = DispatchTime.now().uptimeNanoseconds
            _ = try await source.followedFeeds(for: bobPeer)
            _ = try await source.servableFeeds(for: bobPeer)
            let count = try await source.outgoing(feed: feed, above: have, for: bobPeer)?.envelopes.count ?? 0
            serve.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            guard count == delta else { throw SyncBenchFailure.incomplete("served \(count) of \(delta)") }

            let exportStart = DispatchTime.now().uptimeNanoseconds
            let lines = try aliceStore.export(feed: alice.feedID, forPeer: true)
            var types = 0
            for line in lines where (try? Envelope.parseV1(line))?.type == "post" { types += 1 }
            export.append(Double(DispatchTime.now().uptimeNanoseconds - exportStart) / 1_000_000)
            guard types == feedLength else { throw SyncBenchFailure.incomplete("parsed \(types)") }
        }
        report(BenchFigure(name: "sync.store_delta_10_of_10000_serve_ms", value: serve.min() ?? 0, unit: "ms"))
        report(BenchFigure(name: "sync.store_whole_feed_export_ms", value: export.min() ?? 0, unit: "ms"))

        let statements = aliceStore.countStatements()
        let before = SyncSuite.processCPUSeconds()
        let (aliceReport, bobReport) = try await session(alice, StoreSyncSource(store: aliceStore), bob, StoreSyncSource(store: bobStore))
        let cpu = SyncSuite.processCPUSeconds() - before
        aliceStore.stopCountingStatements()
        guard aliceReport.completed, bobReport.messagesAccepted == delta else {
            throw SyncBenchFailure.incomplete("\(aliceReport) / \(bobReport)")
        }
        report(BenchFigure(name: "sync.store_delta_session_cpu_ms", value: cpu * 1000, unit: "ms"))
        report(BenchFigure(name: "sync.store_statements_per_session", value: Double(statements.count), unit: "statements"))
    }

    private static func store(for me: Identity) throws -> FeedStore {
        let store = try FeedStore(path: nil, storageKey: me.storageKey)
        try store.follow(identityKey: me.publicKeys.identityKey, isLocal: true)
        return store
    }

    private static func add(_ identity: Identity, to store: FeedStore, as me: Identity) throws {
        let card = try ContactCard.create(identity: identity, displayName: "", createdAt: 1_790_000_000)
        let key = try ContactsKey.derive(myDHKey: me.dhKey, theirDHKey: card.publicKeys.dhKey, myFeed: me.feedID, theirFeed: card.feedID)
        try store.addContact(card: card, contactsKey: key, localName: nil, addedAt: 1_790_000_100)
    }

    private static func signedChain(_ count: Int, identity: Identity) throws -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.reserveCapacity(count)
        var last: MessageID?
        let content = Array(repeating: UInt8(ascii: "x"), count: 300)
        for index in 0..<count {
            let envelope = try Envelope.sign(
                UnsignedEnvelope(
                    sequence: UInt32(index), timestamp: 1_743_678_000 + Int64(index), previous: last,
                    type: "post", audience: .contacts, content: content
                ),
                with: identity
            )
            last = envelope.messageID
            out.append(envelope.canonicalBytes)
        }
        return out
    }

    /// One session between two store sources over the simulated link (IK, Alice initiating).
    private static func session(
        _ alice: Identity, _ aliceSource: StoreSyncSource, _ bob: Identity, _ bobSource: StoreSyncSource
    ) async throws -> (SyncSessionReport, SyncSessionReport) {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration())
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
}
