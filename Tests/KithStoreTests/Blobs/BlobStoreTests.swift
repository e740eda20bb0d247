import Crypto
import Foundation
import KithCanonical
import KithFeed
import KithIdentity
import Testing
@testable import KithStore

@Suite struct BlobStoreTests {
    typealias S = StoreFixtures

    @Test func storesBlobsByContentHashOnce() throws {
        let store = try S.store()
        let sealed = try BlobCipher.seal(Array("a photo".utf8))
        let hash = try store.putBlob(sealed.blob, mimeType: "image/jpeg")
        #expect(hash == sealed.contentHash)
        #expect(try store.putBlob(sealed.blob) == hash)
        #expect(try store.blobHashes() == [hash])
        #expect(try store.blob(hash) == sealed.blob)
        #expect(try store.blob("missing") == nil)
    }

    @Test func enforcesTheStoreAndBlobCaps() throws {
        let store = try S.store()
        let limits = BlobLimits(maxStoreBytes: 100, maxBlobBytes: 80)
        _ = try store.putBlob([UInt8](repeating: 1, count: 60), limits: limits)
        #expect(throws: StoreError.self) { try store.putBlob([UInt8](repeating: 2, count: 60), limits: limits) }
        #expect(throws: StoreError.self) { try store.putBlob([UInt8](repeating: 3, count: 81), limits: limits) }
    }

    @Test func gcKeepsReferencedBlobsAndDropsOldUnreferencedOnes() throws {
        let store = try S.store()
        let kept = try BlobCipher.seal([1, 2, 3])
        let dropped = try BlobCipher.seal([4, 5, 6])
        let fresh = try BlobCipher.seal([7, 8, 9])
        let day: Int64 = 86_400_000
        let now: Int64 = 1_790_000_000_000
        try store.putBlob(kept.blob, nowMillis: now - 30 * day)
        try store.putBlob(dropped.blob, nowMillis: now - 8 * day)
        try store.putBlob(fresh.blob, nowMillis: now - 6 * day)
        let chain = S.chain(1) { _ in .post(Post(body: "with photo", attachments: [kept.contentHash])) }
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        let report = try store.collectGarbage(GCPolicy(nowMillis: now))
        #expect(report.deletedBlobs == 1)
        #expect(Set(try store.blobHashes()) == [kept.contentHash, fresh.contentHash])
    }

    @Test func readsTheRawContentObject() throws {
        let store = try S.store()
        let chain = S.chain(1)
        _ = try store.ingest(S.lines(chain), decryptor: S.PlainDecryptor())
        #expect(try store.contentObject(chain[0].messageID)?["body"]?.stringValue == "post 0")
    }
}
