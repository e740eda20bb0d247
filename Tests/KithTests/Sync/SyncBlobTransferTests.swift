import KithFeed
import KithStore
import KithSync
import Testing
@testable import Kith

@Suite("Blob phase between accounts", .timeLimit(.minutes(2)))
struct SyncBlobTransferTests {
    @Test("attachments of synced posts follow the envelopes; Bob can open them")
    func attachmentsFollow() async throws {
        let (alice, bob) = try await SyncPair.met()
        let photo = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let post = try await alice.publishing.post("a photo", audience: .contacts, attachments: [photo, [1, 2, 3]])
        let outcome = await SyncPair.session(alice, bob, configuration: SimulatedBLEConfiguration(mtu: 244))
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(outcome.bob.blobsWanted == 2)
        #expect(outcome.bob.blobsReceived == 2)
        #expect(try await bob.publishing.attachment(of: post.messageID, index: 0) == photo)
        #expect(try await bob.publishing.attachment(of: post.messageID, index: 1) == [1, 2, 3])
        #expect(try bob.store.missingReferencedBlobs().isEmpty)
        let again = await SyncPair.session(alice, bob)
        #expect(again.bob.blobsWanted == 0 && again.alice.blobsSent == 0)
    }

    @Test("--no-blobs: envelopes sync, blobs stay behind until a later session")
    func skipped() async throws {
        let (alice, bob) = try await SyncPair.met()
        let post = try await alice.publishing.post("a photo", audience: .contacts, attachments: [Array(repeating: 9, count: 5_000)])
        let outcome = await SyncPair.session(alice, bob, blobs: false)
        #expect(outcome.alice.completed && outcome.bob.completed)
        #expect(try bob.store.message(post.messageID) != nil)
        #expect(try bob.store.missingReferencedBlobs().count == 1)
        await #expect(throws: KithError.self) { try await bob.publishing.attachment(of: post.messageID, index: 0) }
        _ = await SyncPair.session(alice, bob)
        #expect(try await bob.publishing.attachment(of: post.messageID, index: 0) == Array(repeating: 9, count: 5_000))
    }

    @Test("a blob transfer cut midway stores nothing partial; the next session finishes it")
    func interrupted() async throws {
        let (alice, bob) = try await SyncPair.met()
        let photo = (0..<80_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let post = try await alice.publishing.post("big", audience: .contacts, attachments: [photo])
        var configuration = SimulatedBLEConfiguration()
        configuration.disconnectAfterBytes = 40_000
        let first = await SyncPair.session(alice, bob, configuration: configuration)
        #expect(!first.bob.completed)
        #expect(try bob.store.message(post.messageID) != nil)
        #expect(try bob.store.blobHashes().isEmpty)
        let second = await SyncPair.session(alice, bob)
        #expect(second.bob.completed)
        #expect(try await bob.publishing.attachment(of: post.messageID, index: 0) == photo)
    }
}
