import Testing

@testable import KithContinuity

/// Requests and releases between a new device and its guardians, including replays and tampering.
@Suite struct RecoveryReleaseTests {
    static let owner: [UInt8] = (0..<32).map { UInt8(0x10 &+ $0) }
    static let secret: [UInt8] = (0..<33).map { UInt8(0x55 ^ $0) }

    static func set(generation: UInt32 = 1) throws -> RecoveryShareSet {
        try RecoveryShareSet.split(secret: secret, ownerFeedID: owner, threshold: 2, shareCount: 3, generation: generation)
    }

    @Test func releasedSharesRebuildTheSecretOnTheNewDevice() throws {
        let set = try Self.set()
        let requestKey = try RecoveryRequestKey.make(ownerFeedID: Self.owner)
        // The guardian reads the request from text and shows the same safety code as the new device.
        let received = try RecoveryRequest(text: requestKey.request.text)
        #expect(received.safetyCode == requestKey.request.safetyCode)
        #expect(received.safetyCode.count == 14)
        var collector = RecoveryCollector(requestKey: requestKey)
        #expect(collector.missing == 2)
        try collector.add(try RecoveryRelease(text: try RecoveryRelease.seal(set.shares[2], for: received).text))
        #expect(collector.missing == 1)
        try collector.add(try RecoveryRelease.seal(set.shares[0], for: received))
        #expect(collector.missing == 0)
        #expect(try collector.combine() == Self.secret)
    }

    @Test func oneReleaseBelowTheThresholdRebuildsNothing() throws {
        let set = try Self.set()
        var collector = RecoveryCollector(requestKey: try RecoveryRequestKey.make(ownerFeedID: Self.owner))
        try collector.add(try RecoveryRelease.seal(set.shares[0], for: collector.requestKey.request))
        #expect(throws: RecoveryError.notEnoughShares(have: 1, need: 2)) { try collector.combine() }
    }

    @Test func aReleaseForAnotherRequestIsRefused() throws {
        let set = try Self.set()
        let mine = try RecoveryRequestKey.make(ownerFeedID: Self.owner)
        let attackers = try RecoveryRequestKey.make(ownerFeedID: Self.owner)
        let release = try RecoveryRelease.seal(set.shares[0], for: attackers.request)
        #expect(throws: RecoveryError.releaseForAnotherRequest) { try mine.open(release) }
        // Relabelling the release with my nonce does not help: it is sealed to the other key and request.
        let relabelled = RecoveryRelease(requestNonce: mine.request.nonce, encapsulatedKey: release.encapsulatedKey,
                                         sealedShare: release.sealedShare)
        #expect(throws: RecoveryError.releaseDoesNotOpen) { try mine.open(relabelled) }
    }

    @Test func aReplayedReleaseIsRefused() throws {
        let set = try Self.set()
        var collector = RecoveryCollector(requestKey: try RecoveryRequestKey.make(ownerFeedID: Self.owner))
        let release = try RecoveryRelease.seal(set.shares[0], for: collector.requestKey.request)
        try collector.add(release)
        #expect(throws: RecoveryError.releaseReplayed) { try collector.add(release) }
        // The same guardian releasing again (a fresh seal of the same share) still counts once.
        #expect(throws: RecoveryError.duplicateShare(index: 1)) {
            try collector.add(try RecoveryRelease.seal(set.shares[0], for: collector.requestKey.request))
        }
        #expect(collector.shares.count == 1)
    }

    @Test func aTamperedReleaseIsRefused() throws {
        let set = try Self.set()
        let requestKey = try RecoveryRequestKey.make(ownerFeedID: Self.owner)
        let release = try RecoveryRelease.seal(set.shares[1], for: requestKey.request)
        for position in [0, release.sealedShare.count / 2, release.sealedShare.count - 1] {
            var sealed = release.sealedShare
            sealed[position] ^= 0x01
            let tampered = RecoveryRelease(requestNonce: release.requestNonce, encapsulatedKey: release.encapsulatedKey,
                                           sealedShare: sealed)
            #expect(throws: RecoveryError.releaseDoesNotOpen) { try requestKey.open(tampered) }
        }
        var encapsulated = release.encapsulatedKey
        encapsulated[0] ^= 0x01
        #expect(throws: RecoveryError.releaseDoesNotOpen) {
            try requestKey.open(RecoveryRelease(requestNonce: release.requestNonce, encapsulatedKey: encapsulated,
                                                sealedShare: release.sealedShare))
        }
    }

    @Test func aGuardianRefusesARequestForAnotherFeed() throws {
        let set = try Self.set()
        let other = try RecoveryRequestKey.make(ownerFeedID: [UInt8](repeating: 0xEE, count: 32))
        #expect(throws: RecoveryError.ownerMismatch) { try RecoveryRelease.seal(set.shares[0], for: other.request) }
    }

    @Test func releasesOfAnOlderSetAreRefusedBesideTheNewOnes() throws {
        let old = try Self.set(generation: 1)
        let new = try Self.set(generation: 2)
        var collector = RecoveryCollector(requestKey: try RecoveryRequestKey.make(ownerFeedID: Self.owner))
        try collector.add(try RecoveryRelease.seal(new.shares[0], for: collector.requestKey.request))
        #expect(throws: RecoveryError.sharesFromDifferentSets(field: "set id")) {
            try collector.add(try RecoveryRelease.seal(old.shares[1], for: collector.requestKey.request))
        }
    }

    @Test func theRequestKeySurvivesBetweenCommands() throws {
        let requestKey = try RecoveryRequestKey.make(ownerFeedID: Self.owner)
        let restored = try RecoveryRequestKey(secretBytes: requestKey.secretBytes)
        #expect(restored.request == requestKey.request)
        let share = try Self.set().shares[0]
        #expect(try restored.open(try RecoveryRelease.seal(share, for: requestKey.request)) == share)
        var mismatched = requestKey.secretBytes
        mismatched[5] ^= 0x01  // not bit 0 of byte 0: X25519 clamps it away
        #expect(throws: RecoveryError.self) { try RecoveryRequestKey(secretBytes: mismatched) }
    }

    @Test func malformedRequestsAndReleasesAreTypedRejections() throws {
        let request = try RecoveryRequestKey.make(ownerFeedID: Self.owner).request
        for length in 0..<request.encoded.count {
            #expect(throws: RecoveryError.self) { try RecoveryRequest(encoded: Array(request.encoded.prefix(length))) }
        }
        #expect(throws: RecoveryError.self) { try RecoveryRequest(encoded: request.encoded + [0]) }
        let release = try RecoveryRelease.seal(try Self.set().shares[0], for: request)
        for length in 0..<release.encoded.count {
            #expect(throws: RecoveryError.self) { try RecoveryRelease(encoded: Array(release.encoded.prefix(length))) }
        }
        #expect(throws: RecoveryError.self) { try RecoveryRelease(encoded: release.encoded + [0]) }
        #expect(throws: RecoveryError.self) { try RecoveryRelease(text: String(repeating: "A", count: 10_000)) }
        #expect(try RecoveryRelease(encoded: release.encoded) == release)
    }
}
