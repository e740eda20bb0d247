import KithFeed
import KithIdentity
import PropertyBased
import Testing
@testable import KithStore

/// Whatever order, batching and duplication entries arrive in, the store ends with the same
/// linked chain, nothing pending and nothing stored twice.
@Suite struct IngestPropertyTests {
    typealias S = StoreFixtures
    static let chain = S.chain(12)
    static let withStubs: [[UInt8]] = chain.enumerated().map { index, envelope in
        index % 4 == 1 ? (try! SelfStub.sign(envelope, with: S.alice)).canonicalBytes : envelope.canonicalBytes
    }

    @Test func anyDeliveryOrderConverges() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max)).array(of: 24), Gen.int(in: 1...6)) { keys, batch in
            // Entries (with duplicates) in a random order derived from the keys.
            let entries = Self.withStubs + Self.withStubs.prefix(keys.count % 12)
            let order = zip(keys + Array(repeating: 0, count: max(0, entries.count - keys.count)), entries.indices).sorted { $0.0 < $1.0 }.map(\.1)
            guard let store = try? S.store() else { Issue.record("store"); return }
            var start = 0
            while start < order.count {
                let slice = order[start..<min(start + batch, order.count)].map { entries[$0] }
                _ = try? store.ingest(slice)
                start += batch
            }
            let head = try? store.head(of: S.alice.feedID)
            #expect(head?.sequence == 11)
            #expect(head?.messageID == Self.chain[11].messageID)
            #expect((try? store.followedFeeds().first?.pendingCount) == 0)
            #expect((try? store.messages(limit: 100).count) == 12 - 3)
            #expect((try? store.followedFeeds().first?.isForked) == false)
        }
    }
}
