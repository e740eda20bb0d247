import Testing

@testable import KithContinuity

/// Splitting and combining recovery secrets, including the hostile cases of issue 28 item 5.
@Suite struct RecoveryShareSetTests {
    static let owner: [UInt8] = (0..<32).map { UInt8($0) }
    static let otherOwner: [UInt8] = (0..<32).map { UInt8(0xF0 ^ $0) }
    static let secret: [UInt8] = [0x01] + (0..<32).map { UInt8(0xA0 &+ $0) }

    static func set(threshold: Int = 3, count: Int = 5, generation: UInt32 = 1, owner: [UInt8] = owner) throws -> RecoveryShareSet {
        try RecoveryShareSet.split(secret: secret, ownerFeedID: owner, threshold: threshold, shareCount: count,
                                   generation: generation)
    }

    @Test func thresholdSharesRebuildTheSecret() throws {
        let set = try Self.set()
        #expect(set.shares.map(\.index) == [1, 2, 3, 4, 5])
        #expect(try RecoveryShareSet.combine([set.shares[4], set.shares[0], set.shares[2]]) == Self.secret)
        #expect(try RecoveryShareSet.combine(set.shares, ownerFeedID: Self.owner) == Self.secret)
    }

    @Test func oneShortOfTheThresholdIsATypedError() throws {
        let set = try Self.set()
        #expect(throws: RecoveryError.notEnoughShares(have: 2, need: 3)) {
            try RecoveryShareSet.combine(Array(set.shares.prefix(2)))
        }
        #expect(throws: RecoveryError.notEnoughShares(have: 0, need: 2)) { try RecoveryShareSet.combine([]) }
    }

    @Test func aForgedShareFailsTheIntegrityCheck() throws {
        let set = try Self.set()
        let genuine = set.shares[2]
        // A non-guardian who learned the set's public fields makes up a value for index 3.
        let forged = RecoveryShare(setID: genuine.setID, generation: genuine.generation, threshold: genuine.threshold,
                                   shareCount: genuine.shareCount, index: genuine.index, ownerFeedID: genuine.ownerFeedID,
                                   value: genuine.value.map { $0 ^ 0x01 })
        #expect(throws: RecoveryError.integrityCheckFailed) {
            try RecoveryShareSet.combine([set.shares[0], set.shares[1], forged])
        }
        // One flipped bit in one byte is enough.
        var oneBit = genuine.value
        oneBit[oneBit.count - 1] ^= 0x80
        let altered = RecoveryShare(setID: genuine.setID, generation: genuine.generation, threshold: 3, shareCount: 5,
                                    index: 3, ownerFeedID: genuine.ownerFeedID, value: oneBit)
        #expect(throws: RecoveryError.integrityCheckFailed) {
            try RecoveryShareSet.combine([set.shares[0], set.shares[1], altered])
        }
    }

    @Test func sharesOfAnotherSetAreRefused() throws {
        let old = try Self.set(generation: 1)
        let new = try Self.set(generation: 2)
        #expect(throws: RecoveryError.sharesFromDifferentSets(field: "set id")) {
            try RecoveryShareSet.combine([new.shares[0], new.shares[1], old.shares[2]])
        }
        // A forger who copies the new set id onto an old share still fails: the digest binds the set.
        let relabelled = RecoveryShare(setID: new.setID, generation: 2, threshold: 3, shareCount: 5, index: 3,
                                       ownerFeedID: Self.owner, value: old.shares[2].value)
        #expect(throws: RecoveryError.integrityCheckFailed) {
            try RecoveryShareSet.combine([new.shares[0], new.shares[1], relabelled])
        }
    }

    @Test func sharesOfAnotherOwnerAreRefused() throws {
        let theirs = try Self.set(owner: Self.otherOwner)
        #expect(throws: RecoveryError.ownerMismatch) {
            try RecoveryShareSet.combine(Array(theirs.shares.prefix(3)), ownerFeedID: Self.owner)
        }
    }

    @Test func theSameShareTwiceCountsOnce() throws {
        let set = try Self.set()
        #expect(throws: RecoveryError.duplicateShare(index: 1)) {
            try RecoveryShareSet.combine([set.shares[0], set.shares[1], set.shares[0]])
        }
    }

    @Test func boundsAreChecked() {
        #expect(throws: RecoveryError.thresholdOutOfRange(1)) {
            try RecoveryShareSet.split(secret: Self.secret, ownerFeedID: Self.owner, threshold: 1, shareCount: 3, generation: 1)
        }
        #expect(throws: RecoveryError.shareCountOutOfRange(threshold: 3, count: 2)) {
            try RecoveryShareSet.split(secret: Self.secret, ownerFeedID: Self.owner, threshold: 3, shareCount: 2, generation: 1)
        }
        #expect(throws: RecoveryError.shareCountOutOfRange(threshold: 3, count: 17)) {
            try RecoveryShareSet.split(secret: Self.secret, ownerFeedID: Self.owner, threshold: 3, shareCount: 17, generation: 1)
        }
        #expect(throws: RecoveryError.secretSizeOutOfRange(257)) {
            try RecoveryShareSet.split(secret: [UInt8](repeating: 1, count: 257), ownerFeedID: Self.owner, threshold: 2,
                                       shareCount: 2, generation: 1)
        }
        #expect(throws: RecoveryError.invalidFeedID(byteCount: 31)) {
            try RecoveryShareSet.split(secret: Self.secret, ownerFeedID: Array(Self.owner.prefix(31)), threshold: 2,
                                       shareCount: 2, generation: 1)
        }
    }

    @Test func sixteenOfSixteenWorks() throws {
        let set = try Self.set(threshold: 16, count: 16)
        #expect(try RecoveryShareSet.combine(set.shares.reversed()) == Self.secret)
        #expect(throws: RecoveryError.notEnoughShares(have: 15, need: 16)) {
            try RecoveryShareSet.combine(Array(set.shares.dropFirst()))
        }
    }
}
