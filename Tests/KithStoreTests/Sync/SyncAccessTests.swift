import KithFeed
import KithIdentity
import Testing
@testable import KithStore

@Suite("Store reads for sync sessions (entries above a sequence, replication states)")
struct SyncAccessTests {
    private typealias S = StoreFixtures

    @Test("entries above a sequence are the export's peer lines from there, with their recorded type")
    func entriesAbove() throws {
        let store = try S.store()
        let first = S.chain(3)
        let tombstone = S.chain(1, startingAt: 3, previous: first[2].messageID) { _ in .tombstone(Tombstone(targetMessage: first[0].messageID)) }
        let rest = S.chain(6, startingAt: 4, previous: tombstone[0].messageID)
        let chain = first + tombstone + rest
        _ = try store.ingest(S.lines(chain))
        let exported = try store.export(feed: S.alice.feedID)
        let all = try store.entries(of: S.alice.feedID, above: nil, limit: 100)
        #expect(all.map(\.line) == exported)
        #expect(all.map(\.sequence) == Array(0..<10))
        #expect(all[3].type == "tombstone" && all[0].type == "post")
        let delta = try store.entries(of: S.alice.feedID, above: 6, limit: 100)
        #expect(delta.map(\.sequence) == [7, 8, 9] && delta.map(\.line) == Array(exported[7...]))
        #expect(try store.entries(of: S.alice.feedID, above: 2, limit: 2).map(\.sequence) == [3, 4])
        #expect(try store.entries(of: S.alice.feedID, above: 9, limit: 100).isEmpty)
        #expect(try store.entries(of: S.alice.feedID, above: nil, limit: 0).isEmpty)
        #expect(try store.peerHead(of: S.alice.feedID) == 9)
        #expect(try store.peerHead(of: S.bob.feedID) == nil)
    }

    @Test("self messages replicate as their signed stubs (untyped); a missing own stub throws only when in range")
    func selfStubs() throws {
        let store = try S.store()
        let chain = S.chain(4)
        let stubs = try [1, 2].map { try SelfStub.sign(chain[$0], with: S.alice) }
        _ = try store.ingest([chain[0].canonicalBytes, stubs[0].canonicalBytes, stubs[1].canonicalBytes, chain[3].canonicalBytes])
        let entries = try store.entries(of: S.alice.feedID, above: nil, limit: 10)
        #expect(entries.map(\.line) == [chain[0].canonicalBytes, stubs[0].canonicalBytes, stubs[1].canonicalBytes, chain[3].canonicalBytes])
        #expect(entries.map(\.type) == ["post", nil, nil, "post"])

        // The author's own self message, held whole: its stub travels, or the range throws.
        let own = try S.store()
        let opening = S.chain(2)
        let selfOnly = S.chain(2, startingAt: 2, previous: opening[1].messageID, audience: .selfOnly)
        let linked = opening + selfOnly
        _ = try own.ingest(S.lines(linked))
        #expect(throws: StoreError.self) { try own.entries(of: S.alice.feedID, above: nil, limit: 10) }
        #expect(try own.entries(of: S.alice.feedID, above: 3, limit: 10).isEmpty)
        try own.saveOwnStubs(try selfOnly.map { try SelfStub.sign($0, with: S.alice) })
        let served = try own.entries(of: S.alice.feedID, above: 1, limit: 10)
        #expect(served.map(\.sequence) == [2, 3] && served.allSatisfy { $0.type == nil })
        #expect(served.map(\.line) == Array(try own.export(feed: S.alice.feedID)[2...]))
        #expect(try own.entries(of: S.alice.feedID, above: 3, limit: 10).isEmpty)
    }

    @Test("replication states list every feed with its head and held sequences")
    func replicationStates() throws {
        let store = try S.store()
        try store.follow(identityKey: S.bob.publicKeys.identityKey, isLocal: true)
        let chain = S.chain(10)
        _ = try store.ingest(S.lines(Array(chain[0..<3])))
        _ = try store.ingest(S.lines([chain[9], chain[6]]))
        let states = try store.replicationStates()
        #expect(states.count == 2)
        #expect(states.first?.feedID == S.bob.feedID && states.first?.isLocal == true && states.first?.headSequence == nil)
        let alice = try #require(states.first { $0.feedID == S.alice.feedID })
        #expect(alice.headSequence == 2 && alice.heldSequences == [6, 9])
        #expect(alice.heldSequences == (try store.heldSequencesAhead(of: S.alice.feedID)))
        #expect(try store.followedFeeds().map(\.head?.sequence) == states.map(\.headSequence))
        #expect(try store.isFollowed(S.alice.feedID) && store.isFollowed(S.bob.feedID))
    }

    @Test("followed feeds are read in one statement, whatever their number")
    func followedFeedsInOneStatement() throws {
        let store = try S.store()
        try store.follow(identityKey: S.bob.publicKeys.identityKey, isLocal: true)
        let chain = S.chain(4)
        _ = try store.ingest(S.lines(Array(chain[0..<3])))
        _ = try store.ingest(S.lines([chain[3]]))
        func statements() throws -> (Int, [FollowedFeed]) {
            let counter = store.countStatements()
            let feeds = try store.followedFeeds()
            store.stopCountingStatements()
            return (counter.count, feeds)
        }
        let (few, feeds) = try statements()
        #expect(feeds.count == 2)
        #expect(feeds.first { $0.feedID == S.alice.feedID }?.head?.sequence == 3)
        // Ten more feeds, the same statements (the read's own transaction ones included).
        for byte in UInt8(1)...10 {
            try store.follow(identityKey: try Identity(seed: try Seed(bytes: [UInt8](repeating: byte, count: 32))).publicKeys.identityKey)
        }
        let (many, more) = try statements()
        #expect(more.count == 12)
        #expect(many == few)
    }
}
