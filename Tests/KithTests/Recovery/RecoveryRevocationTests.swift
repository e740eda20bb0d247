import KithAccountFixtures
import KithContinuity
import KithFeed
import KithIdentity
import KithStore
import Testing
@testable import Kith

/// Revoking guardian sets (docs/CONTINUITY.md, "Revoking a set"): a replaced guardian deletes its old share, `revoke()`
/// reaches every guardian, and a revocation only ever deletes the sender's own shares.
@Suite struct RecoveryRevocationTests {
    @Test func aGuardianReplacedByANewSetDeletesItsOldShare() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let (bob, carol, dave) = (guardians[0], guardians[1], guardians[2])
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        for guardian in guardians { try await RecoveryAccountTests.deliver(alice, to: guardian) }
        #expect(try await dave.recovery.held().map(\.owner) == [alice.feedID])

        let second = try await alice.recovery.setup(threshold: 2, guardians: [bob.feedID, carol.feedID])
        for guardian in guardians { try await RecoveryAccountTests.deliver(alice, to: guardian) }
        #expect(try await dave.recovery.held().isEmpty)
        #expect(try dave.store.heldRecoveryShare(of: alice.feedID) == nil)
        for kept in [bob, carol] { #expect(try await kept.recovery.held().map(\.generation) == [second.generation]) }
    }

    @Test func aReplacedGuardianWhoIsNoLongerAContactDoesNotStopTheNewSet() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        _ = try await alice.contacts.remove(guardians[2].feedID)
        let second = try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, guardians[1].feedID])
        #expect(try await alice.recovery.status() == second)
    }

    @Test func revokeReachesEveryGuardianAndMarksTheSet() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let set = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        for guardian in guardians { try await RecoveryAccountTests.deliver(alice, to: guardian) }
        let revoked = try await alice.recovery.revoke()
        #expect(revoked.setID == set.setID && revoked.revokedAt == MetAccounts.now)
        #expect(try await alice.recovery.status()?.revokedAt == MetAccounts.now)
        for guardian in guardians {
            try await RecoveryAccountTests.deliver(alice, to: guardian)
            #expect(try await guardian.recovery.held().isEmpty)
        }
        await #expect(throws: KithError.self) { try await alice.recovery.revoke() }
        // A new set after a revocation is handed over as usual.
        let next = try await alice.recovery.setup(threshold: 2, guardians: [guardians[0].feedID, guardians[1].feedID])
        try await RecoveryAccountTests.deliver(alice, to: guardians[0])
        #expect(try await guardians[0].recovery.held().map(\.generation) == [next.generation])
    }

    @Test func aRevocationFromAnotherContactDeletesNothing() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let (bob, carol) = (guardians[0], guardians[1])
        try await RecoveryAccountTests.meet(bob, "Bob", carol, "Carol")
        let set = try await alice.recovery.setup(threshold: 2, guardians: [carol.feedID, guardians[2].feedID])
        try await RecoveryAccountTests.deliver(alice, to: carol)
        // Bob, a contact of Carol's, forges Alice's revocation over his own direct channel to Carol.
        let forged = RecoveryRevocation(owner: alice.feedID, setID: set.setID, generation: set.generation)
        _ = try bob.sendDirectBlocking(.recoveryRevocation(forged), to: carol.feedID)
        try await RecoveryAccountTests.deliver(bob, to: carol)
        #expect(try await carol.recovery.held().map(\.owner) == [alice.feedID])
        // Nor is the revocation content ever accepted outside a direct message.
        let content = Content.recoveryRevocation(forged)
        #expect(throws: KithError.self) { try alice.send(content, plaintext: try content.canonicalBytes(), audience: .contacts) }
    }

    @Test func aRevokedShareHandedOverAgainIsNotKept() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let bob = guardians[0]
        let set = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        try await RecoveryAccountTests.deliver(alice, to: bob)
        let share = try #require(try bob.store.heldRecoveryShare(of: alice.feedID))
        _ = try await alice.recovery.revoke()
        try await RecoveryAccountTests.deliver(alice, to: bob)
        #expect(try await bob.recovery.held().isEmpty)
        // The same share arriving again (a replay of its handover) is not kept: the revocation is remembered.
        let again = try bob.store.acceptRecoveryShare(share, from: alice.feedID, setID: set.setID, generation: Int64(set.generation))
        #expect(again == .stale)
        #expect(try await bob.recovery.held().isEmpty)
    }

    @Test func aGuardianRestoredFromABackupStillHoldsItsShares() async throws {
        let (alice, guardians) = try await RecoveryAccountTests.people()
        let bob = guardians[0]
        let set = try await alice.recovery.setup(threshold: 2, guardians: guardians.map(\.feedID))
        try await RecoveryAccountTests.deliver(alice, to: bob)
        let share = try #require(try bob.store.heldRecoveryShare(of: alice.feedID))
        let (restored, _, _) = try await ReestablishTests.restore(bob)
        #expect(try await restored.recovery.held().map(\.owner) == [alice.feedID])
        #expect(try restored.store.heldRecoveryShare(of: alice.feedID) == share)
        // The owner's side of the set travels too: a restored owner still knows its guardians.
        let (restoredAlice, _, _) = try await ReestablishTests.restore(alice)
        #expect(try await restoredAlice.recovery.status()?.setID == set.setID)
    }
}
