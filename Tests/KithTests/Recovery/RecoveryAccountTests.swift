import KithAccountFixtures
import KithContinuity
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// Recovery through contacts through the facade (docs/CONTINUITY.md): the owner's setup hands shares over in
/// `recovery_share` direct messages, guardians keep the newest set, release to a request, and a new device rebuilds
/// the identity; the hostile paths give typed errors.
@Suite struct RecoveryAccountTests {
    static func recoveryError(_ error: KithError?) -> RecoveryError? {
        if case .recovery(let underlying)? = error { return underlying }
        return nil
    }

    static func meet(_ a: Account, _ aName: String, _ b: Account, _ bName: String) async throws {
        try await b.contacts.add(cardText: try await a.contacts.card(displayName: aName).text, name: aName)
        try await a.contacts.add(cardText: try await b.contacts.card(displayName: bName).text, name: bName)
    }

    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importVerified(lines: try await from.feed.export(), identityKey: from.identity.publicKeys.identityKey)
        try await to.direct.process()
    }

    /// Alice and three guardians who met her: Bob, Carol, Dave.
    static func people() async throws -> (alice: Account, guardians: [Account]) {
        let alice = try MetAccounts.account(0xA1)
        var guardians: [Account] = []
        for (byte, name) in [(UInt8(0xB0), "Bob"), (0xC0, "Carol"), (0xD0, "Dave")] {
            let guardian = try MetAccounts.account(byte)
            try await meet(alice, "Alice", guardian, name)
            guardians.append(guardian)
        }
        return (alice, guardians)
    }

    static func releases(from guardians: [Account], owner: FeedID, to requestKey: RecoveryRequestKey) async throws -> [RecoveryRelease] {
        var releases: [RecoveryRelease] = []
        for guardian in guardians { releases.append(try await guardian.recovery.release(for: owner, request: requestKey.request)) }
        return releases
    }

    @Test func guardiansReleaseAndANewDeviceRebuildsTheIdentity() async throws {
        let (alice, guardians) = try await Self.people()
        let set = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        #expect(set.generation == 1 && set.threshold == 2 && set.guardians == guardians.map(\.feedID))
        #expect(try await alice.recovery.status() == set)
        for guardian in guardians { try await Self.deliver(alice, to: guardian) }
        for guardian in guardians {
            let held = try await guardian.recovery.held()
            #expect(held.map(\.owner) == [alice.feedID] && held.first?.setID == set.setID && held.first?.generation == 1)
        }

        let requestKey = try RecoveryRequestKey.make(ownerFeedID: alice.feedID.rawBytes)
        var collector = RecoveryCollector(requestKey: requestKey)
        for release in try await Self.releases(from: [guardians[2], guardians[0]], owner: alice.feedID, to: requestKey) {
            try collector.add(release)
        }
        let recovered = try Account.Recovery.rebuild(from: collector)
        #expect(recovered.identity.feedID == alice.feedID)
        #expect(recovered.deviceSeed.withUnsafeBytes { Array($0) } == [UInt8](repeating: 0xA1, count: 32))
        #expect(recovered.keySeeds == nil)
    }

    @Test func oneGuardianAloneRebuildsNothing() async throws {
        let (alice, guardians) = try await Self.people()
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        try await Self.deliver(alice, to: guardians[0])
        var collector = RecoveryCollector(requestKey: try RecoveryRequestKey.make(ownerFeedID: alice.feedID.rawBytes))
        try collector.add(try await guardians[0].recovery.release(for: alice.feedID, request: collector.requestKey.request))
        let error = #expect(throws: KithError.self) { try Account.Recovery.rebuild(from: collector) }
        #expect(Self.recoveryError(error) == .notEnoughShares(have: 1, need: 2))
    }

    @Test func aGuardianRefusesARequestClaimingAnotherFeedAndANonGuardianHasNothing() async throws {
        let (alice, guardians) = try await Self.people()
        try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, guardians[1].feedID])
        for guardian in guardians { try await Self.deliver(alice, to: guardian) }
        #expect(try await guardians[2].recovery.held().isEmpty)
        let impostor = try RecoveryRequestKey.make(ownerFeedID: guardians[2].feedID.rawBytes)
        #expect(Self.recoveryError(await #expect(throws: KithError.self) {
            try await guardians[0].recovery.release(for: alice.feedID, request: impostor.request)
        }) == .ownerMismatch)
        let request = try RecoveryRequestKey.make(ownerFeedID: alice.feedID.rawBytes).request
        await #expect(throws: KithError.self) { try await guardians[2].recovery.release(for: alice.feedID, request: request) }
    }

    @Test func aNewSetReplacesTheOldOneAndTheSetsDoNotMix() async throws {
        let (alice, guardians) = try await Self.people()
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        for guardian in guardians { try await Self.deliver(alice, to: guardian) }
        let requestKey = try RecoveryRequestKey.make(ownerFeedID: alice.feedID.rawBytes)
        let oldRelease = try await guardians[2].recovery.release(for: alice.feedID, request: requestKey.request)

        // Dave is replaced: a new set for Bob and Carol, generation 2.
        let second = try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, guardians[1].feedID])
        #expect(second.generation == 2)
        #expect(try await alice.recovery.status() == second)
        for guardian in guardians.prefix(2) { try await Self.deliver(alice, to: guardian) }
        #expect(try await guardians[0].recovery.held().first?.setID == second.setID)

        var collector = RecoveryCollector(requestKey: requestKey)
        try collector.add(try await guardians[0].recovery.release(for: alice.feedID, request: requestKey.request))
        #expect(throws: RecoveryError.sharesFromDifferentSets(field: "set id")) { try collector.add(oldRelease) }
        try collector.add(try await guardians[1].recovery.release(for: alice.feedID, request: requestKey.request))
        #expect(try Account.Recovery.rebuild(from: collector).identity.feedID == alice.feedID)
    }

    @Test func aShareForwardedByANonOwnerIsNotKept() async throws {
        let (alice, guardians) = try await Self.people()
        let (bob, carol) = (guardians[0], guardians[1])
        try await Self.meet(bob, "Bob", carol, "Carol")
        try await alice.recovery.setup(threshold: 2, guardians: [bob.feedID, guardians[2].feedID])
        try await Self.deliver(alice, to: bob)
        // Bob hands Alice's share to Carol as if it were his own: Carol keeps nothing.
        let aliceShare = try #require(try bob.store.heldRecoveryShare(of: alice.feedID))
        _ = try bob.sendDirectBlocking(.recoveryShare(RecoveryShareHandover(shareBytes: aliceShare)), to: carol.feedID)
        try await Self.deliver(bob, to: carol)
        #expect(try await carol.recovery.held().isEmpty)
    }

    @Test func setupChecksItsGuardiansAndSharesStayOutOfFeedAudiences() async throws {
        let (alice, guardians) = try await Self.people()
        let stranger = try MetAccounts.account(0xE0)
        #expect(Self.recoveryError(await #expect(throws: KithError.self) {
            try await alice.recovery.setup(threshold: 1, guardians: guardians.map(\.feedID))
        }) == .thresholdOutOfRange(1))
        #expect(Self.recoveryError(await #expect(throws: KithError.self) {
            try await alice.recovery.setup(threshold: 3, guardians: guardians.prefix(2).map(\.feedID))
        }) == .shareCountOutOfRange(threshold: 3, count: 2))
        await #expect(throws: KithError.self) {
            try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, guardians[0].feedID])
        }
        await #expect(throws: KithError.self) {
            try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, stranger.feedID])
        }
        #expect(try await alice.recovery.status() == nil)
        let content = Content.recoveryShare(RecoveryShareHandover(shareBytes: [1, 2, 3]))
        #expect(throws: KithError.self) {
            try alice.send(content, plaintext: try content.canonicalBytes(), audience: .contacts)
        }
    }
}

/// The new device's pending request: kept sealed in the store, single use, refusing replays.
@Suite struct RecoveryRequestAccountTests {
    @Test func aPendingRequestRebuildsOnceAndRefusesReplays() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        for guardian in guardians { try await RecoveryAccountTests.deliver(alice, to: guardian) }
        let newDevice = try MetAccounts.account(0x77)
        #expect(try await newDevice.recovery.pendingRequest() == nil)
        let request = try await newDevice.recovery.makeRequest(for: alice.feedID)
        #expect(try await newDevice.recovery.pendingRequest() == request)
        let first = try await guardians[0].recovery.release(for: alice.feedID, request: request)
        let second = try await guardians[1].recovery.release(for: alice.feedID, request: request)

        let replay = await #expect(throws: KithError.self) { try await newDevice.recovery.rebuild(from: [first, first]) }
        #expect(RecoveryAccountTests.recoveryError(replay) == .releaseReplayed)
        #expect(try await newDevice.recovery.rebuild(from: [second, first]).identity.feedID == alice.feedID)
        // Single use: the request is gone, so the same releases rebuild nothing again.
        #expect(try await newDevice.recovery.pendingRequest() == nil)
        await #expect(throws: KithError.self) { try await newDevice.recovery.rebuild(from: [first, second]) }
        // A release made for an earlier request does not open for a new one.
        _ = try await newDevice.recovery.makeRequest(for: alice.feedID)
        let stale = await #expect(throws: KithError.self) { try await newDevice.recovery.rebuild(from: [first, second]) }
        #expect(RecoveryAccountTests.recoveryError(stale) == .releaseForAnotherRequest)
    }
}
