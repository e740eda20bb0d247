import Crypto
import KithRatchet
import Synchronization
import Testing

@Suite struct PrekeyTests {
    @Test func batchRoundTrips() throws {
        let store = InMemoryPrekeyStore()
        let batch = try store.generateOneTimePrekeys(count: RatchetConstants.defaultOneTimePrekeyBatch, forPeer: Fixtures.peer)
        #expect(batch.entries.count == 100)
        #expect(batch.encoded.count == 3 + 100 * 36)
        #expect(try OneTimePrekeyBatch.decode(batch.encoded) == batch)
    }

    @Test func batchDecoderIsBounded() throws {
        let batch = try InMemoryPrekeyStore().generateOneTimePrekeys(count: 3, forPeer: Fixtures.peer)
        let bytes = batch.encoded
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode([]) }
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode(Array(bytes.dropLast())) }
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode(bytes + [0]) }
        var version = bytes; version[0] = 2
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode(version) }
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode([1, 0, 0]) }
        // A count above 8192 is refused before any allocation.
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode([1, 0x20, 0x01]) }
        var reordered = bytes
        reordered.replaceSubrange(3..<39, with: bytes[39..<75])
        reordered.replaceSubrange(39..<75, with: bytes[3..<39])
        #expect(throws: RatchetError.self) { try OneTimePrekeyBatch.decode(reordered) }
        var lowOrder = bytes
        lowOrder.replaceSubrange(7..<39, with: [UInt8](repeating: 0, count: 32))
        #expect(throws: RatchetError.lowOrderPoint) { try OneTimePrekeyBatch.decode(lowOrder) }
    }

    @Test func consumeOnceAndUnknownIDs() throws {
        let store = InMemoryPrekeyStore()
        let batch = try store.generateOneTimePrekeys(count: 4, forPeer: Fixtures.peer)
        let id = batch.entries[1].id
        #expect(try store.oneTimePrekey(id: id, forPeer: Fixtures.peer) != nil)
        let key = try store.consumeOneTimePrekey(id: id, forPeer: Fixtures.peer)
        #expect(Array(key.publicKey.rawRepresentation) == batch.entries[1].publicKey)
        #expect(throws: RatchetError.unknownOneTimePrekey(id: id)) { try store.consumeOneTimePrekey(id: id, forPeer: Fixtures.peer) }
        #expect(throws: RatchetError.unknownOneTimePrekey(id: id)) { try store.consumeOneTimePrekey(id: id, forPeer: Fixtures.otherPeer) }
        #expect(try store.status(forPeer: Fixtures.peer).remaining == 3)
    }

    @Test func lowWaterWarningFiresBelowTenPercent() throws {
        let warnings = Mutex<[Int]>([])
        let store = InMemoryPrekeyStore { _, status in warnings.withLock { $0.append(status.remaining) } }
        let batch = try store.generateOneTimePrekeys(count: 20, forPeer: Fixtures.peer)
        for entry in batch.entries.prefix(19) { _ = try store.consumeOneTimePrekey(id: entry.id, forPeer: Fixtures.peer) }
        #expect(warnings.withLock { $0 } == [1])
        #expect(try store.status(forPeer: Fixtures.peer).isBelowLowWater)
    }

    @Test func poolIsCapped() throws {
        let store = InMemoryPrekeyStore()
        _ = try store.generateOneTimePrekeys(count: RatchetConstants.maxOneTimePrekeys, forPeer: Fixtures.peer)
        #expect(throws: RatchetError.prekeyPoolFull(limit: 8192)) { try store.generateOneTimePrekeys(count: 1, forPeer: Fixtures.peer) }
    }

    @Test func signedPrekeyVerifies() throws {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let record = try SignedPrekey.sign(id: 7, publicKey: alice.keys.dhKey.publicKey, identityKey: alice.keys.identityKey)
        let identity = Array(alice.keys.identityKey.publicKey.rawRepresentation)
        #expect(try SignedPrekey.decode(record.encoded, identityKey: identity) == record)
        #expect(try PrekeyBundle(peer: try alice.peer, signedPrekey: record, oneTimePrekey: nil).signedPrekey == record.publicKey)
        var forged = record.encoded
        forged[10] ^= 1
        #expect(throws: RatchetError.invalidSignedPrekeySignature) { try SignedPrekey.decode(forged, identityKey: identity) }
        #expect(throws: RatchetError.invalidSignedPrekeySignature) {
            try SignedPrekey.decode(record.encoded, identityKey: Array(bob.keys.identityKey.publicKey.rawRepresentation))
        }
    }
}
