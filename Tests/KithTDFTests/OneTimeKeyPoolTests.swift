import Testing
@testable import KithTDF

/// The per-peer one-time key pool as pure values: one key per message, decrypt once, exhaustion, renewal, revocation.
@Suite struct OneTimeKeyPoolTests {
    @Test func eachMessageUsesANewKeyAndDecryptsExactlyOnce() throws {
        var mine = try OneTimeKeyPool(size: 16)
        var theirs = mine.offer
        #expect(theirs.capacity == 16 && mine.remaining == 16)
        var ids = Set<[UInt8]>()
        for index in 0..<16 {
            let text = Array("message \(index)".utf8)
            let nano = try theirs.encrypt(text, kasBody: "peer", policy: .plaintext([1]))
            #expect(ids.insert(nano.header.kas.identifier).inserted)
            let received = try NanoTDF(parsing: nano.serialized)
            #expect(try mine.open(received) == text)
            #expect(mine.remaining == 15 - index)
            let id = try #require(OneTimeKeyID(bytes: received.header.kas.identifier))
            #expect(throws: OneTimeKeyPoolError.unknownKey(id)) { try mine.open(received) }
        }
        #expect(throws: OneTimeKeyPoolError.exhausted) { try theirs.takeNext() }
    }

    @Test func aForgedMessageDoesNotBurnTheKey() throws {
        var mine = try OneTimeKeyPool(size: 2)
        var theirs = mine.offer
        let nano = try theirs.encrypt(Array("hi".utf8), kasBody: "peer", policy: .encrypted([1, 2]))
        var bytes = nano.serialized
        bytes[bytes.count - 1] ^= 1
        #expect(throws: OneTimeKeyPoolError.decryption(.authenticationFailed(field: "payload"))) {
            try mine.open(try NanoTDF(parsing: bytes))
        }
        #expect(mine.remaining == 2)
        #expect(try mine.open(nano) == Array("hi".utf8))
    }

    @Test func renewalThresholdIsTenPercent() throws {
        let keys = try OneTimeKeyPool(size: 20).offer.publicKeys
        var pool = try PeerKeyPool(publicKeys: keys)
        for _ in 0..<18 {
            #expect(!pool.needsRenewal)
            _ = try pool.takeNext()
        }
        #expect(pool.remaining == 2 && !pool.needsRenewal)
        _ = try pool.takeNext()
        #expect(pool.needsRenewal)
    }

    @Test func revokeForgetsEveryKeyAndOffersAreChecked() throws {
        var mine = try OneTimeKeyPool(size: 4)
        var theirs = mine.offer
        let nano = try theirs.encrypt([7], kasBody: "peer", policy: .plaintext([1]))
        mine.revoke()
        #expect(mine.remaining == 0)
        #expect(throws: OneTimeKeyPoolError.self) { try mine.open(nano) }
        #expect(throws: OneTimeKeyPoolError.invalidSize(0)) { try OneTimeKeyPool(size: 0) }
        #expect(throws: OneTimeKeyPoolError.invalidOffer(reason: "duplicate key")) {
            try PeerKeyPool(publicKeys: [theirs.publicKeys[0], theirs.publicKeys[0]])
        }
        #expect(throws: OneTimeKeyPoolError.self) { try PeerKeyPool(publicKeys: [[0x02] + [UInt8](repeating: 0xFF, count: 32)]) }
        let plain = try NanoTDF.encrypt([1], to: try TDFVectors.recipient().publicKey,
                                        configuration: .init(kas: try NanoTDF.ResourceLocator(scheme: .https, body: "x"), policy: .plaintext([1])))
        #expect(throws: OneTimeKeyPoolError.missingKeyID) { try mine.open(plain) }
    }

    @Test func defaultPoolSize() throws {
        let start = ContinuousClock.now
        let pool = try OneTimeKeyPool()
        let elapsed = ContinuousClock.now - start
        #expect(pool.remaining == 8192 && pool.offer.capacity == 8192)
        print("one-time key pool: 8192 P-256 key pairs generated and offer checked in \(elapsed)")
    }
}
