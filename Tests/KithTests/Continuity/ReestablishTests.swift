import Foundation
import KithAccountFixtures
import KithContinuity
import KithFeed
import KithGroups
import KithIdentity
@testable import KithStore
import Testing
@testable import Kith

/// Re-establishment after a restore (docs/CONTINUITY.md section 8): fresh prekeys to every contact once the
/// restored-head guard lifts, the inner-circle pool declared dead to its peer, groups readmitted by their committer.
@Suite struct ReestablishTests {
    static let key = RecoveryKey.generate()

    /// Backs `account` up and restores it into a new home, on the fixtures' clock (KeyPackage lifetimes are checked
    /// against the receiver's clock).
    static func restore(_ account: Account) async throws -> (Account, RestoreReport, AccountHome) {
        let file = BackupRestoreTests.temporary("file")
        _ = try await account.backup(to: file, secret: .recoveryKey(Self.key))
        let home = AccountHome(directory: BackupRestoreTests.temporary("home"))
        let (restored, report) = try await Account.restore(
            from: file, secret: .recoveryKey(Self.key), home: home, expectedFeedID: account.feedID, scrypt: .testing, passphrase: { "p" },
            clock: { MetAccounts.now })
        return (restored, report, home)
    }

    static func ownHead(_ account: Account) throws -> UInt32? { try account.store.head(of: account.feedID)?.sequence }

    static func directTexts(_ reader: Account, from author: FeedID) async throws -> [String] {
        try await reader.direct.conversation(with: author).compactMap { message in
            guard message.feedID == author, case .post(let post)? = message.content else { return nil }
            return post.body
        }
    }

    static func groupTexts(_ reader: Account, _ group: GroupID) async throws -> [String] {
        try await reader.groups.messages(group).compactMap { if case .post(let post)? = $0.content { post.body } else { nil } }
    }

    /// A third account (0xC0) that exchanged cards with `bob`.
    static func carol(meeting bob: Account) async throws -> Account {
        let carol = try MetAccounts.account(0xC0)
        try await bob.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
        try await carol.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        return carol
    }

    @Test func prekeysGoOutOnceWhenTheGuardLiftsAndTheContactsReplyDecryptsOnTheNewDevice() async throws {
        let (alice, bob) = try await BackupRestoreTests.aliceWithHistory()
        // Bob holds a session with the old device.
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try await Self.directTexts(bob, from: alice.feedID) == ["hello bob"])
        let (restored, _, home) = try await Self.restore(alice)
        // The old device posted after the backup: the restored one must learn that head first.
        try await alice.publishing.post("from the old device", audience: .contacts)

        let waiting = try await restored.reestablish()
        #expect(waiting.waitingForHead && waiting.prekeysSent == 0 && waiting.prekeysTotal == 1)
        let headBefore = try Self.ownHead(restored)
        #expect(try Self.ownHead(restored) == headBefore, "nothing is sent while the guard stands")

        // Learning the head (an import of what the contact holds) lifts the guard; the prekeys go out by themselves.
        _ = try await restored.feed.importKnown(lines: try await alice.feed.export())
        let status = try await restored.reestablishStatus()
        #expect(!status.waitingForHead && status.prekeysSent == 1 && status.prekeysTotal == 1 && status.isComplete)
        let headAfter = try #require(try Self.ownHead(restored))
        #expect(status.description.contains("prekeys: sent to 1 of 1 contacts"))

        // Not again: neither on another pass nor after reopening the home.
        _ = try await restored.reestablish()
        let reopened = try await Account.open(home: home, passphrase: { "p" })
        _ = try await reopened.reestablish()
        _ = try await reopened.feed.importKnown(lines: try await alice.feed.export())
        #expect(try Self.ownHead(reopened) == headAfter)

        // Bob reads the batch, answers, and the new device reads the answer.
        _ = try await bob.feed.importFromContact(lines: try await reopened.feed.export(), contact: alice.feedID)
        _ = try await bob.direct.send("welcome back", to: alice.feedID)
        _ = try await reopened.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await Self.directTexts(reopened, from: bob.feedID).contains("welcome back"))
    }

    @Test func aPoolResetDropsOnlyThePoolOfItsSender() async throws {
        let (alice, bob) = try await SyncPair.met()
        let carol = try await Self.carol(meeting: bob)
        try await alice.circle.add(bob.feedID, poolSize: 8)
        try await bob.circle.add(alice.feedID, poolSize: 8)
        _ = await SyncPair.session(alice, bob)
        try await carol.circle.add(bob.feedID, poolSize: 8)
        try await bob.circle.add(carol.feedID, poolSize: 8)
        _ = await SyncPair.session(carol, bob)
        #expect(try await CircleTests.pools(bob, with: alice) != nil)
        #expect(try await CircleTests.pools(bob, with: carol) != nil)

        // Another contact's notice reaches only that contact's own pool: Alice's stays.
        let batch = try await carol.direct.issuePrekeys(for: bob.feedID, count: 4)
        _ = try await carol.direct.send(.prekeyBatch(PrekeyBatch(batchBytes: batch.encoded, poolReset: true)), to: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await carol.feed.export(), contact: carol.feedID)
        #expect(try await CircleTests.pools(bob, with: carol) == nil)
        #expect(try await CircleTests.pools(bob, with: alice) != nil, "a notice from Carol dropped Alice's pool")

        // Alice restores; her rotation lifts the guard and her fresh batch says the pool is dead.
        let (restored, _, _) = try await Self.restore(alice)
        try await restored.rotation.rotate(reason: .deviceMigration)
        #expect(try await restored.reestablishStatus().prekeysSent == 1)
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        #expect(try await CircleTests.pools(bob, with: alice) == nil)
        // A new exchange starts as before.
        try await restored.circle.add(bob.feedID, poolSize: 8)
        try await bob.circle.add(alice.feedID, poolSize: 8)
        _ = await SyncPair.session(restored, bob)
        #expect(try await CircleTests.pools(bob, with: alice)?.state == .active)
    }

    /// Bob commits a group with Alice in it; returns the group.
    static func groupWithAlice(_ alice: Account, _ bob: Account) async throws -> GroupID {
        _ = try await alice.groups.shareKeyPackage(with: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        let group = try await bob.groups.create(name: "trip")
        try await bob.groups.add(group.id, contacts: [alice.feedID])
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await alice.groups.summary(group.id).status == .active)
        return group.id
    }

    @Test func aRestoredMemberIsReadmittedOnceByTheCommitterAndReadsNewGroupMessages() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let group = try await Self.groupWithAlice(alice, bob)
        let (restored, report, _) = try await Self.restore(alice)
        #expect(report.groupsAwaitingReadmission.map(\.groupID) == [group.string])
        try await restored.rotation.rotate(reason: .deviceMigration)
        let asked = try await restored.reestablishStatus()
        #expect(asked.groupsRequested == 1 && asked.groupsReadmitted == 0 && asked.groupsTotal == 1)

        let epochBefore = try await bob.groups.summary(group).epoch
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let firstRequests = try await bob.groups.readmissionRequests()
        #expect(firstRequests.map(\.state) == [.honoured], "\(firstRequests)")
        let epochAfter = try await bob.groups.summary(group).epoch
        #expect(epochAfter == epochBefore + 1)

        _ = try await restored.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await restored.groups.summary(group).status == .active)
        let done = try await restored.reestablishStatus()
        #expect(done.groupsReadmitted == 1 && done.isComplete)
        try await bob.groups.send(group, text: "glad you are back")
        _ = try await restored.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await Self.groupTexts(restored, group).contains("glad you are back"))

        // The same request made again (a replay, or a second restore of the same backup) makes no second commit.
        try restored.store.setReestablishTask(.readmission, target: group.string, state: .pending, now: 0)
        _ = try await restored.reestablish()
        _ = try await bob.feed.importFromContact(lines: try await restored.feed.export(), contact: alice.feedID)
        let requests = try await bob.groups.readmissionRequests()
        #expect(requests.map(\.state) == [.honoured, .refused])
        #expect(requests.last?.reason?.contains("readmitted to that group less than") == true)
        #expect(try await bob.groups.summary(group).epoch == epochAfter)
    }

    @Test func aReadmissionRequestFromANonMemberIsRefused() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let group = try await Self.groupWithAlice(alice, bob)
        let carol = try await Self.carol(meeting: bob)
        let epoch = try await bob.groups.summary(group).epoch
        let keyPackage = try carol.makeKeyPackageBlocking(recipient: bob.feedID)
        _ = try await carol.direct.send(.keyPackageOffer(KeyPackageOffer(keyPackageBytes: keyPackage, readmitGroup: group.string)), to: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await carol.feed.export(), contact: carol.feedID)
        let requests = try await bob.groups.readmissionRequests()
        #expect(requests.map(\.state) == [.refused])
        #expect(requests.first?.reason?.contains("not a current member") == true)
        #expect(try await bob.groups.summary(group).epoch == epoch)
        #expect(try await bob.groups.summary(group).members.contains(carol.feedID) == false)
    }

    @Test func aReadmissionRequestCarryingAnotherFeedsKeyPackageIsIgnored() async throws {
        let (alice, bob) = try await MetAccounts.met()
        let group = try await Self.groupWithAlice(alice, bob)
        let carol = try await Self.carol(meeting: bob)
        let epoch = try await bob.groups.summary(group).epoch
        // Carol relays a KeyPackage of Alice's, as if Alice asked: it does not name Carol, so nothing is recorded.
        let alicesKeyPackage = try alice.makeKeyPackageBlocking(recipient: bob.feedID)
        _ = try await carol.direct.send(
            .keyPackageOffer(KeyPackageOffer(keyPackageBytes: alicesKeyPackage, readmitGroup: group.string)), to: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await carol.feed.export(), contact: carol.feedID)
        #expect(try await bob.groups.readmissionRequests().isEmpty)
        #expect(try await bob.groups.summary(group).epoch == epoch)
    }
}

/// The guard lifted by a real sync session (simulated radio): the session brings the own head, the prekeys go out in
/// the next session, and the contact's answer arrives in the one after.
@Suite struct ReestablishSyncTests {
    @Test func aSyncThatBringsTheOwnHeadStartsReestablishment() async throws {
        let (alice, bob) = try await BackupRestoreTests.aliceWithHistory()
        let (restored, _, _) = try await ReestablishTests.restore(alice)
        try await alice.publishing.post("from the old device", audience: .contacts)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)

        _ = await SyncPair.session(restored, bob)
        #expect(!restored.isAwaitingHeadAfterRestore)
        #expect(try await restored.reestablishStatus().prekeysSent == 1)
        _ = await SyncPair.session(restored, bob)
        _ = try await bob.direct.send("welcome back", to: alice.feedID)
        _ = await SyncPair.session(restored, bob)
        #expect(try await ReestablishTests.directTexts(restored, from: bob.feedID).contains("welcome back"))
    }
}
