import Foundation
import KithAccountFixtures
import KithContinuity
import KithFeed
import KithIdentity
import GRDB
@testable import KithStore
import Testing
@testable import Kith

/// `account.feed.switchFork(of:to:)`: resolving a recorded fork of a contact's feed the other way (docs/CONTINUITY.md
/// section 3). The story: Bob's phone is stolen; the thief keeps posting on Bob's old branch while Bob, restored from a
/// backup, publishes a key rotation at a sequence the stolen phone already used. Alice saw the thief's entry first.
@Suite struct ForkSwitchTests {
    struct Story {
        let alice: Account
        /// The stolen phone (Bob's old device, still holding his keys).
        let thief: Account
        /// Bob, restored from his backup on a new device.
        let bob: Account
        /// The sequence both branches used.
        let forkSequence: UInt32
        let thiefEntry: String
        let bobRotation: String
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("kith-forkswitch-\(name)-\(UUID().uuidString)")
    }

    static let key = RecoveryKey.generate()

    static func texts(_ account: Account, of feed: FeedID) async throws -> [String] {
        try await account.feed.timeline(feed: feed).compactMap { message in
            if case .post(let post)? = message.content { return post.body }
            return nil
        }
    }

    /// Alice holds the thief's entry at the fork sequence; Bob's rotation there is fork evidence.
    /// - Parameter thiefActs: what the stolen phone publishes after the backup (default: one post).
    static func stolenPhone(
        thiefActs: (_ thief: Account, _ alice: Account) async throws -> Void = { thief, _ in try await thief.publishing.post("thief one", audience: .contacts) },
        beforeTheft: (_ bob: Account, _ alice: Account) async throws -> Void = { _, _ in }
    ) async throws -> Story {
        let (alice, thief) = try await MetAccounts.met()
        try await beforeTheft(thief, alice)
        try await thief.publishing.post("before the theft", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await thief.feed.export(), contact: thief.feedID)
        let file = temporary("backup")
        _ = try await thief.backup(to: file, secret: .recoveryKey(key))
        try await thiefActs(thief, alice)
        _ = try await alice.feed.importFromContact(lines: try await thief.feed.export(), contact: thief.feedID)
        let home = AccountHome(directory: temporary("home"))
        let (bob, _) = try await Account.restore(from: file, secret: .recoveryKey(key), home: home, scrypt: .testing, passphrase: { "p" })
        try await bob.rotation.rotate(reason: .deviceMigration)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        let forks = try await alice.feed.forks()
        let fork = try #require(forks.first)
        #expect(forks.count == 1)
        return Story(alice: alice, thief: thief, bob: bob, forkSequence: fork.sequence, thiefEntry: fork.keptMessageID, bobRotation: fork.conflictingMessageID)
    }

    @Test func aliceSwitchesToBobsRotationAndReadsHisNextPostWhileTheThiefsBranchStaysEvidence() async throws {
        let story = try await Self.stolenPhone()
        let (alice, bob, thief) = (story.alice, story.bob, story.thief)
        #expect(try await Self.texts(alice, of: bob.feedID).contains("thief one"))

        let report = try await alice.feed.switchFork(of: bob.feedID)
        #expect(report.sequence == story.forkSequence)
        #expect(report.adoptedMessageIDs == [story.bobRotation])
        #expect(report.droppedMessageIDs == [story.thiefEntry])
        #expect(report.headSequence == story.forkSequence)
        #expect(report.keysChanged)
        #expect(try alice.store.head(of: bob.feedID)?.messageID.string == story.bobRotation)
        #expect(!(try await Self.texts(alice, of: bob.feedID).contains("thief one")))
        // Bob's rotation now decides his keys here.
        let contact = try #require(try await alice.contacts.record(bob.feedID))
        #expect(contact.identityKey == bob.identity.publicKeys.identityKeyString)
        #expect(contact.keyIsVerified)
        #expect(try alice.store.keyRotations(feed: bob.feedID).map(\.sequence) == [story.forkSequence])
        // The switch is visible: the thief's entry is evidence against Bob's, resolved (acknowledged) by Alice.
        let all = try await alice.feed.forks(includeAcknowledged: true)
        #expect(all.map(\.keptMessageID) == [story.bobRotation])
        #expect(all.map(\.conflictingMessageID) == [story.thiefEntry])
        #expect(all.allSatisfy { $0.acknowledgedAt != nil })

        // Bob's next post imports normally and reads.
        try await bob.publishing.post("it is really me", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await Self.texts(alice, of: bob.feedID).contains("it is really me"))
        // The thief's branch arriving again (and its later entry) is never adopted.
        try await thief.publishing.post("thief two", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await thief.feed.export(), contact: thief.feedID)
        let shown = try await Self.texts(alice, of: bob.feedID)
        #expect(!shown.contains("thief one") && !shown.contains("thief two"))
        #expect(shown.contains("it is really me"))
        #expect(try alice.store.forkEvidence(feed: bob.feedID).contains { $0.conflicting == story.thiefEntry })
    }

    @Test func switchingBackRestoresTheFirstBranchWholeAndItsKeys() async throws {
        let story = try await Self.stolenPhone { thief, _ in
            try await thief.publishing.post("thief one", audience: .contacts)
            try await thief.publishing.post("thief two", audience: .contacts)
        }
        let (alice, bob) = (story.alice, story.bob)
        let keyBefore = try #require(try await alice.contacts.record(bob.feedID)).identityKey
        let textsBefore = try await Self.texts(alice, of: bob.feedID)
        let switched = try await alice.feed.switchFork(of: bob.feedID)
        #expect(switched.droppedMessageIDs.count == 2)
        #expect(try await Self.texts(alice, of: bob.feedID) == ["before the theft"])
        #expect(try await alice.feed.forkSwitchChoices(of: bob.feedID).map(\.messageID) == [story.thiefEntry])
        // The thief's entry above the new head could not be adopted alone: it does not follow what is held.
        let above = try #require(switched.droppedMessageIDs.last)
        guard case .notOnHeldChain? = await Self.refusal({ () throws(KithError) in try await alice.feed.switchFork(of: bob.feedID, to: above) }) else {
            Issue.record("an entry off the held chain was adopted"); return
        }
        // Switching back adopts the whole first branch from the evidence, in order.
        let back = try await alice.feed.switchFork(of: bob.feedID, to: story.thiefEntry)
        #expect(back.adoptedMessageIDs == switched.droppedMessageIDs)
        #expect(back.droppedMessageIDs == [story.bobRotation])
        #expect(try await Self.texts(alice, of: bob.feedID) == textsBefore)
        #expect(try await alice.contacts.record(bob.feedID)?.identityKey == keyBefore)
        #expect(try alice.store.keyRotations(feed: bob.feedID).isEmpty)
        let evidence = try alice.store.forkEvidence(feed: bob.feedID)
        #expect(evidence.map(\.kept) == [story.thiefEntry] && evidence.map(\.conflicting) == [story.bobRotation])
    }

    @Test func aRotationOnTheDroppedBranchNoLongerDecidesTheKeys() async throws {
        let story = try await Self.stolenPhone { thief, _ in try await thief.rotation.rotate(reason: .keyCompromise) }
        let (alice, bob, thief) = (story.alice, story.bob, story.thief)
        // Before: the thief's rotation decides Bob's keys here.
        #expect(try await alice.contacts.record(bob.feedID)?.identityKey == thief.identity.publicKeys.identityKeyString)
        let thiefDH = thief.identity.publicKeys.dhKeyString
        try await alice.feed.switchFork(of: bob.feedID)
        let contact = try #require(try await alice.contacts.record(bob.feedID))
        #expect(contact.identityKey == bob.identity.publicKeys.identityKeyString)
        #expect(contact.dhKey == bob.identity.publicKeys.dhKeyString)
        #expect(contact.keyIsVerified)
        #expect(!(try alice.store.contactDHKeys()[bob.feedID] ?? []).contains(thiefDH))
        #expect(try alice.store.keyRotations(feed: bob.feedID).map(\.newIdentityKey) == [bob.identity.publicKeys.identityKeyString])
        // An entry signed with the thief's key is refused; Bob's new post is read.
        try await thief.publishing.post("signed by the thief's key", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await thief.feed.export(), contact: thief.feedID)
        try await bob.publishing.post("from the new device", audience: .contacts)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        let shown = try await Self.texts(alice, of: bob.feedID)
        #expect(shown.contains("from the new device"))
        #expect(!shown.contains("signed by the thief's key"))
    }

    /// What a test compares before and after a refused or failed switch.
    static func copyState(_ alice: Account, of feed: FeedID) async throws -> [String] {
        let head = try alice.store.head(of: feed)?.messageID.string ?? "none"
        let contact = try await alice.contacts.record(feed)
        let evidence = try alice.store.forkEvidence(feed: feed).map { "\($0.sequence) \($0.kept) \($0.conflicting)" }
        let rotations = try alice.store.keyRotations(feed: feed).map { "\($0.sequence) \($0.newIdentityKey)" }
        return [head, contact?.identityKey ?? "", contact?.dhKey ?? ""] + (try await texts(alice, of: feed)) + evidence + rotations
    }

    static func refusal(_ body: () async throws(KithError) -> Void) async -> ForkSwitchRefusal? {
        do { try await body() } catch { if case .store(.forkSwitchRefused(let refusal)) = error { return refusal } }
        return nil
    }

    /// The switch is refused for an entry of the dropped branch whose line contains `phrase`, and nothing changed.
    static func expectIrreversibleRefusal(_ story: Story, naming phrase: String) async throws {
        let (alice, bob) = (story.alice, story.bob)
        let before = try await copyState(alice, of: bob.feedID)
        let refused = await refusal { () throws(KithError) in try await alice.feed.switchFork(of: bob.feedID) }
        guard case .irreversibleEntries(let items)? = refused else { Issue.record("not refused: \(String(describing: refused))"); return }
        #expect(items.contains { $0.contains(phrase) })
        #expect(try await copyState(alice, of: bob.feedID) == before)
    }

    @Test func theOwnFeedAnUnknownEntryAndAFeedWithoutForkAreRefused() async throws {
        let story = try await Self.stolenPhone()
        let (alice, bob) = (story.alice, story.bob)
        let before = try await Self.copyState(alice, of: bob.feedID)
        #expect(await Self.refusal { () throws(KithError) in try await alice.feed.switchFork(of: alice.feedID) } == .ownFeed)
        // The store refuses the own feed by itself too (not only the account's guard).
        do {
            _ = try alice.store.switchFork(of: alice.feedID, to: nil, decryptor: nil, now: 0)
            Issue.record("the own feed was switched")
        } catch {
            #expect(error.description.contains("own feed"))
        }
        let unknown = await Self.refusal { () throws(KithError) in try await alice.feed.switchFork(of: bob.feedID, to: "not-recorded") }
        #expect(unknown == .unknownEntry(feed: bob.feedID.string, messageID: "not-recorded"))
        // The held entry is not a choice: it is already there.
        let held = await Self.refusal { () throws(KithError) in try await alice.feed.switchFork(of: bob.feedID, to: story.thiefEntry) }
        #expect(held == .unknownEntry(feed: bob.feedID.string, messageID: story.thiefEntry))
        #expect(try await Self.copyState(alice, of: bob.feedID) == before)

        let (carol, dave) = try await MetAccounts.met()
        try await dave.publishing.post("no fork here", audience: .contacts)
        _ = try await carol.feed.importFromContact(lines: try await dave.feed.export(), contact: dave.feedID)
        #expect(await Self.refusal { () throws(KithError) in try await carol.feed.switchFork(of: dave.feedID) } == .noFork(feed: dave.feedID.string))
        #expect(try await Self.texts(carol, of: dave.feedID) == ["no fork here"])
    }

    @Test func aDroppedBranchWithADirectMessageToAliceIsRefusedAndChangesNothing() async throws {
        let story = try await Self.stolenPhone { thief, alice in
            _ = try await alice.direct.sendPrekeys(to: thief.feedID)
            _ = try await thief.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
            _ = try await thief.direct.send("a direct message from the thief", to: alice.feedID)
        }
        try await Self.expectIrreversibleRefusal(story, naming: "direct message to you")
    }

    @Test func resettingTheDirectChannelDropsTheThiefsDirectMessageAndTalksAfreshWithTheNewDevice() async throws {
        let story = try await Self.stolenPhone { thief, alice in
            _ = try await alice.direct.sendPrekeys(to: thief.feedID)
            _ = try await thief.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
            _ = try await thief.direct.send("a direct message from the thief", to: alice.feedID)
        }
        let (alice, bob) = (story.alice, story.bob)
        #expect(try await ReestablishTests.directTexts(alice, from: bob.feedID) == ["a direct message from the thief"])
        #expect(try alice.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dr_sessions WHERE peer_feed_id = ?", arguments: [bob.feedID.string]) } == 1)

        let report = try await alice.feed.switchFork(of: bob.feedID, resettingDirectChannel: true)
        #expect(!report.droppedMessageIDs.isEmpty && report.keysChanged)
        #expect(try await ReestablishTests.directTexts(alice, from: bob.feedID).isEmpty)
        for table in ["dr_sessions", "peer_prekeys", "one_time_prekeys"] {
            let left = try alice.store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table) WHERE peer_feed_id = ?", arguments: [bob.feedID.string]) }
            #expect(left == 0, "\(table) still holds what the thief's branch set up")
        }

        // Bob's new device and Alice talk afresh: his restore's prekeys reach her with the rest of his branch, hers reach him.
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        _ = try await alice.direct.send("is this really you?", to: bob.feedID)
        _ = try await alice.direct.sendPrekeys(to: bob.feedID)
        _ = try await bob.feed.importFromContact(lines: try await alice.feed.export(), contact: alice.feedID)
        #expect(try await ReestablishTests.directTexts(bob, from: alice.feedID).contains("is this really you?"))
        _ = try await bob.direct.send("it is, new phone", to: alice.feedID)
        _ = try await alice.feed.importFromContact(lines: try await bob.feed.export(), contact: bob.feedID)
        #expect(try await ReestablishTests.directTexts(alice, from: bob.feedID) == ["it is, new phone"])
    }

    @Test func whatASwitchReadsIntoMemoryIsBoundedInBytes() async throws {
        let story = try await Self.stolenPhone()
        let (alice, bob) = (story.alice, story.bob)
        // The dropped branch (the thief's) is refused whole above the bound, before any of it is read.
        do {
            _ = try alice.store.read { db in try DroppedBranch.load(db, feed: bob.feedID, from: story.forkSequence, maxBytes: 16) }
            Issue.record("a branch larger than the byte bound was read")
        } catch StoreError.forkSwitchRefused(.branchTooLarge(let bytes, let limit)) {
            #expect(bytes > limit && limit == 16)
        }
        // The evidence is read oldest first up to the bound: nothing past it.
        let within = try alice.store.read { db in try ForkEvidenceEntries.load(db, feed: bob.feedID, maxBytes: StoreLimits().maxForkSwitchBytes) }
        let cut = try alice.store.read { db in try ForkEvidenceEntries.load(db, feed: bob.feedID, maxBytes: 16) }
        #expect(within.entries.count == 1 && cut.entries.isEmpty)
    }

    @Test func theByteBoundCountsBytesNotCharacters() async throws {
        let story = try await Self.stolenPhone()
        let (alice, bob) = (story.alice, story.bob)
        let arguments: StatementArguments = [bob.feedID.string, story.forkSequence]
        // Stored text may hold multi-byte characters: 100 "é" are 100 characters and 200 bytes.
        try await alice.store.database.write { db in
            try db.execute(sql: "UPDATE messages SET content_json = ?3 WHERE feed_id = ?1 AND sequence >= ?2",
                           arguments: arguments + [String(repeating: "é", count: 100)])
            #expect(db.changesCount == 1)
        }
        let bytes = try await alice.store.database.read { db in
            try Row.fetchAll(db, sql: "SELECT envelope_json, content_json FROM messages WHERE feed_id = ?1 AND sequence >= ?2", arguments: arguments)
                .reduce(0) { $0 + ($1["envelope_json"] as String).utf8.count + (($1["content_json"] as String?)?.utf8.count ?? 0) }
                + Row.fetchAll(db, sql: "SELECT entry_json FROM message_stubs WHERE feed_id = ?1 AND sequence >= ?2", arguments: arguments)
                .reduce(0) { $0 + (($1["entry_json"] as String?)?.utf8.count ?? 0) }
        }
        _ = try alice.store.read { db in try DroppedBranch.load(db, feed: bob.feedID, from: story.forkSequence, maxBytes: bytes) }
        do {
            _ = try alice.store.read { db in try DroppedBranch.load(db, feed: bob.feedID, from: story.forkSequence, maxBytes: bytes - 1) }
            Issue.record("a branch one byte over the bound was read")
        } catch StoreError.forkSwitchRefused(.branchTooLarge(let counted, _)) {
            #expect(counted == bytes)
        }
    }

    @Test func aFailureInsideTheSwitchRollsEverythingBack() async throws {
        let story = try await Self.stolenPhone { thief, _ in try await thief.rotation.rotate(reason: .keyCompromise) }
        let (alice, bob) = (story.alice, story.bob)
        let before = try await Self.copyState(alice, of: bob.feedID)
        // An injected failure at the switch's last write (the evidence of the dropped branch).
        try await alice.store.database.write { db in
            try db.execute(sql: "CREATE TEMP TRIGGER injected_failure BEFORE INSERT ON fork_evidence BEGIN SELECT RAISE(ABORT, 'injected failure'); END")
        }
        await #expect(throws: KithError.self) { try await alice.feed.switchFork(of: bob.feedID) }
        #expect(try await Self.copyState(alice, of: bob.feedID) == before)
        try await alice.store.database.write { db in try db.execute(sql: "DROP TRIGGER injected_failure") }
        try await alice.feed.switchFork(of: bob.feedID)
        #expect(try await Self.copyState(alice, of: bob.feedID) != before)
    }

    static func messageID(_ account: Account, posted body: String) async throws -> MessageID {
        let messages = try await account.feed.timeline(feed: account.feedID)
        return try #require(messages.first { if case .post(let post)? = $0.content { post.body == body } else { false } }).messageID
    }

    @Test func aDroppedProfileUpdateAndARetractionWithinTheDroppedBranchAreUndone() async throws {
        let story = try await Self.stolenPhone { thief, _ in
            _ = try await thief.publishing.setProfile(displayName: "Not Bob")
            try await thief.publishing.post("thief one", audience: .contacts)
            _ = try await thief.publishing.delete(try await Self.messageID(thief, posted: "thief one"))
        }
        let (alice, bob) = (story.alice, story.bob)
        #expect(try await alice.contacts.record(bob.feedID)?.displayName == "Not Bob")
        try await alice.feed.switchFork(of: bob.feedID)
        #expect(try await alice.contacts.record(bob.feedID)?.displayName == "Bob")
        #expect(try await Self.texts(alice, of: bob.feedID) == ["before the theft"])
    }

    @Test func aDroppedRetractionOfAKeptPostIsRefused() async throws {
        let story = try await Self.stolenPhone { thief, _ in
            _ = try await thief.publishing.delete(try await Self.messageID(thief, posted: "before the theft"))
        }
        try await Self.expectIrreversibleRefusal(story, naming: "retracted the kept")
    }

    @Test func anIntroductionOnTheDroppedBranchIsUndoneAndTheKeptOneStagedAgain() async throws {
        let carol = try MetAccounts.account(0xC0)
        let dave = try MetAccounts.account(0xD0)
        let story = try await Self.stolenPhone(thiefActs: { thief, alice in
            // The thief introduces Carol again (its note replaces Bob's) and a stranger to Alice, Dave.
            try await thief.contacts.introduce(carol.feedID, to: alice.feedID, note: "from the thief")
            try await thief.contacts.introduce(dave.feedID, to: alice.feedID, note: "meet my friend")
        }, beforeTheft: { bob, alice in
            for friend in [carol, dave] {
                try await bob.contacts.add(cardText: try await friend.contacts.card(displayName: "Friend").text, name: "Friend")
            }
            try await bob.contacts.introduce(carol.feedID, to: alice.feedID, note: "from Bob")
        })
        let alice = story.alice
        let before = try await alice.contacts.introductions()
        #expect(Set(before.map(\.introducedFeedID)) == [carol.feedID, dave.feedID])
        #expect(before.first { $0.introducedFeedID == carol.feedID }?.note == "from the thief")

        _ = try await alice.feed.switchFork(of: story.bob.feedID)
        let after = try await alice.contacts.introductions()
        // Dave's introduction came only from the dropped branch: gone. Carol's is Bob's own again, from before the fork.
        #expect(after.map(\.introducedFeedID) == [carol.feedID])
        #expect(after.first?.note == "from Bob")
    }
}
