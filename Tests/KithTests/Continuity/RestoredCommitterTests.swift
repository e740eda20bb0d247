import Foundation
import GRDB
import KithAccountFixtures
import KithCanonical
import KithContinuity
import KithFeed
import KithGroups
import KithIdentity
@testable import KithStore
import Testing
@testable import Kith

/// A group's committer restored from a backup (docs/CONTINUITY.md section 8, "When the committer was the one
/// restored"): its readmission request to one member carries a warrant naming that member as proxy; the proxy commits
/// the readmission, the other members accept it, the committer joins from the proxy's Welcome and commits again.
@Suite struct RestoredCommitterTests {
    /// Alice (committer) with Bob and Carol; returns the group.
    static func aliceCommitsATrio() async throws -> (alice: Account, bob: Account, carol: Account, group: GroupID) {
        let (alice, bob) = try await MetAccounts.met()
        let carol = try await ReestablishTests.carol(meeting: alice)
        for member in [bob, carol] {
            _ = try await member.groups.shareKeyPackage(with: alice.feedID)
            _ = try await alice.feed.importFromContact(lines: try await member.feed.export(), contact: member.feedID)
        }
        let group = try await alice.groups.create(name: "climbing")
        try await alice.groups.add(group.id, contacts: [bob.feedID, carol.feedID])
        for member in [bob, carol] {
            _ = try await member.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
            #expect(try await member.groups.summary(group.id).status == .active)
        }
        return (alice, bob, carol, group.id)
    }

    @Test func theProxyReadmitsARestoredCommitterWhoCommitsAgain() async throws {
        let (alice, bob, carol, group) = try await Self.aliceCommitsATrio()
        let (restored, report, _) = try await ReestablishTests.restore(alice)
        #expect(report.groupsAwaitingReadmission.map(\.groupID) == [group.string])
        try await restored.rotation.rotate(reason: .deviceMigration)
        // The proxy is the first member (feed id order) that is a verified contact; the other gets a plain request.
        let (proxy, other) = bob.feedID.string < carol.feedID.string ? (bob, carol) : (carol, bob)

        let epoch = try await proxy.groups.summary(group).epoch
        _ = try await other.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let refused = try await other.groups.readmissionRequests()
        #expect(refused.map(\.state) == [.refused] && refused.first?.committerReadmission == nil)
        #expect(refused.first?.reason?.contains("only the group's committer readmits members") == true)
        _ = try await proxy.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let honoured = try await proxy.groups.readmissionRequests()
        #expect(honoured.map(\.state) == [.honoured], "\(honoured)")
        #expect(try await proxy.groups.summary(group).epoch == epoch + 1)
        #expect(try await proxy.groups.summary(group).committer == alice.feedID)

        _ = try await other.feed.importKnown(lines: try await proxy.feed.export())
        #expect(try await other.groups.summary(group).epoch == epoch + 1)
        _ = try await restored.feed.importFromContact(lines: try await proxy.feed.export(), contact: proxy.feedID)
        let summary = try await restored.groups.summary(group)
        #expect(summary.status == .active && summary.isCommitter && summary.epoch == epoch + 1)
        #expect(try await restored.reestablishStatus().isComplete)

        // The committer commits again: the others follow, and read its message.
        _ = try await restored.groups.send(group, text: "back on the rope")
        for member in [bob, carol] {
            _ = try await member.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
            #expect(try await ReestablishTests.groupTexts(member, group).contains("back on the rope"))
        }
        _ = try await restored.groups.remove(group, member: other.feedID)
        _ = try await proxy.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        #expect(try await proxy.groups.summary(group).members.contains(other.feedID) == false)
    }

    @Test func whenTheNamedProxyNeverAnswersAnotherMemberIsAskedAndReadmits() async throws {
        let (alice, bob, carol, group) = try await Self.aliceCommitsATrio()
        let (restored, _, _) = try await ReestablishTests.restore(alice)
        try await restored.rotation.rotate(reason: .deviceMigration)
        let (silent, other) = bob.feedID.string < carol.feedID.string ? (bob, carol) : (carol, bob)
        #expect(try await restored.reestablishStatus().groupsWaiting == [group.string])

        // The first proxy never syncs again: Alice asks the other member, whose request now carries the warrant.
        try await restored.askReadmission(to: group, via: other.feedID)
        let epoch = try await other.groups.summary(group).epoch
        _ = try await other.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let requests = try await other.groups.readmissionRequests()
        #expect(requests.map(\.state) == [.refused, .honoured], "\(requests)")
        #expect(try await other.groups.summary(group).epoch == epoch + 1)
        _ = try await restored.feed.importFromContact(lines: try await other.feed.export(), contact: other.feedID)
        #expect(try await restored.groups.summary(group).isCommitter)
        #expect(try await restored.reestablishStatus().groupsWaiting.isEmpty)

        // Asking again is refused: the group is readmitted; a group that was never pending is refused too.
        await #expect(throws: KithError.self) { try await restored.askReadmission(to: group, via: silent.feedID) }
        await #expect(throws: KithError.self) { try await restored.askReadmission(to: GroupID.random(), via: silent.feedID) }
    }

    @Test func aWarrantNamingAnotherProxyOrAnotherKeyPackageIsIgnored() async throws {
        let (alice, bob, carol, group) = try await Self.aliceCommitsATrio()
        let groupID = group.string
        // A warrant for Carol, sent to Bob; a warrant for Bob naming another KeyPackage than the one it comes with.
        let forCarol = try alice.makeKeyPackageBlocking(recipient: bob.feedID)
        let madeForCarol = try alice.committerReadmission(
            group: groupID, proxy: carol.feedID, keyPackageReference: try Self.reference(forCarol), now: MetAccounts.now)
        let other = try alice.makeKeyPackageBlocking(recipient: bob.feedID)
        let madeForOther = try alice.committerReadmission(
            group: groupID, proxy: bob.feedID, keyPackageReference: try Self.reference(other), now: MetAccounts.now)
        let offers = [
            KeyPackageOffer(keyPackageBytes: forCarol, readmitGroup: groupID, committerReadmission: madeForCarol.encoded),
            KeyPackageOffer(keyPackageBytes: try alice.makeKeyPackageBlocking(recipient: bob.feedID), readmitGroup: groupID,
                            committerReadmission: madeForOther.encoded),
        ]
        for offer in offers { _ = try await alice.direct.send(.keyPackageOffer(offer), to: bob.feedID) }
        let epoch = try await bob.groups.summary(group).epoch
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try await bob.groups.readmissionRequests().isEmpty)
        #expect(try await bob.groups.summary(group).epoch == epoch)
    }

    @Test func aMemberWhoIsNotTheCommitterCannotGetItselfReadmittedByProxy() async throws {
        let (alice, bob, carol, group) = try await Self.aliceCommitsATrio()
        try await bob.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await carol.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        // Carol (not the committer) signs a warrant naming Bob: Bob refuses, the group does not move.
        let carolsBob = bob.feedID
        let keyPackage = try carol.makeKeyPackageBlocking(recipient: carolsBob)
        let warrant = try carol.committerReadmission(
            group: group.string, proxy: carolsBob, keyPackageReference: try Self.reference(keyPackage), now: MetAccounts.now)
        let epoch = try await bob.groups.summary(group).epoch
        _ = try await carol.direct.send(
            .keyPackageOffer(KeyPackageOffer(keyPackageBytes: keyPackage, readmitGroup: group.string, committerReadmission: warrant.encoded)),
            to: carolsBob)
        _ = try await bob.feed.importFromContact(lines: try await carol.feed.export(), contact: carol.feedID)
        let requests = try await bob.groups.readmissionRequests()
        #expect(requests.map(\.state) == [.refused])
        #expect(requests.first?.reason?.contains("only the group's committer readmits members") == true)
        #expect(try await bob.groups.summary(group).epoch == epoch)
        _ = alice
    }

    static func reference(_ keyPackage: [UInt8]) throws -> String {
        Base64URL.encode(try GroupKeyPackage.reference(try GroupKeyPackage.decode(keyPackage)))
    }
}

/// KeyPackages across a restore: a contact drops the restored identity's old KeyPackages when its `pool_reset`
/// arrives (their private halves died with the old device), so a later add uses a fresh one that the new device opens.
@Suite struct RestoredKeyPackageTests {
    @Test func aContactAddsTheRestoredIdentityWithAFreshKeyPackage() async throws {
        let (alice, bob) = try await MetAccounts.met()
        _ = try await alice.groups.shareKeyPackage(with: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let old = try bob.readGroupStore { access in try access.peerKeyPackageCount(of: alice.feedID.string) }
        #expect(old >= 1)

        let (restored, _, _) = try await ReestablishTests.restore(alice)
        try await restored.rotation.rotate(reason: .deviceMigration)
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        // Only KeyPackages the new device made can be left (an automatic offer, if one went out with the pass).
        let fresh = try restored.readGroupStore { access in
            try StoreError.catching {
                try Int.fetchOne(access.db, sql: "SELECT COUNT(*) FROM mls_own_key_packages WHERE recipient_feed_id = ?", arguments: [bob.feedID.string]) ?? 0
            }
        }
        let held = try bob.readGroupStore { access in try access.peerKeyPackageCount(of: alice.feedID.string) }
        #expect(held == fresh, "Bob still holds KeyPackages from before the restore")

        // With a fresh KeyPackage, Bob's add reaches the new device.
        _ = try await restored.groups.shareKeyPackage(with: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let group = try await bob.groups.create(name: "after the restore")
        try await bob.groups.add(group.id, contacts: [alice.feedID])
        _ = try await restored.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await restored.groups.summary(group.id).status == .active)
    }
}
