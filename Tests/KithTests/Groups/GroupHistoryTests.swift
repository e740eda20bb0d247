import Kith
import KithAccountFixtures
import KithCanonical
import KithFeed
import KithGroups
import KithIdentity
import KithMLS
import KithStore
import KithTestSupport
import Synchronization
import Testing

@testable import Kith

/// The one-history rule under hostile delivery: random orders, tampering, non-members, crashes.
@Suite struct GroupHistoryTests {
    /// Alice (committer) and four members who know only Alice.
    static func crowd() async throws -> (alice: Account, others: [Account], group: GroupID) {
        let alice = try MetAccounts.account(0xA1)
        var others: [Account] = []
        for (byte, name) in [(UInt8(0xB0), "Bob"), (0xC0, "Carol"), (0xD0, "Dave"), (0xE0, "Erin")] {
            let member = try MetAccounts.account(byte)
            try await member.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
            try await alice.contacts.add(cardText: try await member.contacts.card(displayName: name).text, name: name)
            try await member.groups.shareKeyPackage(with: alice.feedID)
            _ = try await alice.feed.importKnown(lines: try await member.feed.export())
            others.append(member)
        }
        let group = try await alice.groups.create(name: "five")
        try await alice.groups.add(group.id, contacts: others.map(\.feedID))
        return (alice, others, group.id)
    }

    /// One delivery of `from`'s feed to `to`; false when `to` does not follow that feed (yet).
    @discardableResult
    static func deliver(_ from: Account, to: Account) async -> Bool {
        guard from !== to, let lines = try? await from.feed.export() else { return false }
        return (try? await to.feed.importKnown(lines: lines)) != nil
    }

    /// What a member has: its epoch, status and the texts it read.
    static func view(_ account: Account, _ group: GroupID) async throws -> (UInt64, GroupRecord.Status, Set<String>) {
        let summary = try await account.groups.summary(group)
        let texts = try await account.groups.messages(group, limit: 1000).compactMap { message -> String? in
            if case .post(let post)? = message.content { post.body } else { nil }
        }
        return (summary.epoch, summary.status, Set(texts))
    }

    /// Delivers every feed to every account in random orders until a whole round changes nothing.
    static func settle(_ accounts: [Account], _ group: GroupID, using generator: inout some RandomNumberGenerator) async throws {
        var last: [String] = []
        for _ in 0..<16 {
            var pairs: [(Account, Account)] = []
            for from in accounts { for to in accounts where from !== to { pairs.append((from, to)) } }
            pairs.shuffle(using: &generator)
            for (from, to) in pairs { await deliver(from, to: to) }
            var now: [String] = []
            for account in accounts {
                let (epoch, status, texts) = try await view(account, group)
                now.append("\(epoch) \(status) \(texts.count) \(try await account.feed.headSequence(of: account.feedID) ?? 0)")
            }
            if now == last { return }
            last = now
        }
        Issue.record("delivery did not settle")
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func fiveMembersConvergeUnderRandomDeliveryOrders(seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        let (alice, others, group) = try await Self.crowd()
        let everyone = [alice] + others
        let (bob, carol, dave, erin) = (others[0], others[1], others[2], others[3])
        var sent: Set<String> = []
        // Joining happens in some random order.
        for member in others.shuffled(using: &generator) { await Self.deliver(alice, to: member) }
        for (index, member) in everyone.enumerated() {
            try await member.groups.send(group, text: "hello \(index)")
            sent.insert("hello \(index)")
        }
        try await bob.groups.updateKeys(group)
        try await carol.groups.leave(group)
        try await Self.settle(everyone, group, using: &generator)
        try await alice.groups.remove(group, member: dave.feedID)
        // Bob and Erin learn of the removal before they write (a message of an epoch Dave was still in is his to read).
        await Self.deliver(alice, to: bob)
        await Self.deliver(alice, to: erin)
        for (index, member) in [alice, bob, erin].enumerated() {
            try await member.groups.send(group, text: "after \(index)")
            sent.insert("after \(index)")
        }
        try await Self.settle(everyone, group, using: &generator)

        let (epoch, _, aliceTexts) = try await Self.view(alice, group)
        #expect(aliceTexts == sent)
        for member in [bob, erin] {
            let (memberEpoch, status, texts) = try await Self.view(member, group)
            #expect(memberEpoch == epoch && status == .active)
            #expect(texts == sent)
        }
        #expect(try await carol.groups.summary(group).status == .left)
        #expect(try await dave.groups.summary(group).status == .removed)
        // Dave read nothing sent after his removal.
        let (_, _, daveTexts) = try await Self.view(dave, group)
        #expect(daveTexts.allSatisfy { $0.hasPrefix("hello") })
        #expect(try await alice.groups.summary(group).members.count == 3)
    }

    @Test func aTamperedGroupEventChangesNothing() async throws {
        let (alice, others, group) = try await Self.crowd()
        let (bob, carol) = (others[0], others[1])
        await Self.deliver(alice, to: bob)
        await Self.deliver(alice, to: carol)
        // Bob publishes garbage and a commit of his own (he is not the committer), both properly signed entries.
        let garbage: [UInt8] = Array(repeating: 7, count: 64)
        _ = try bob.appendMaking(type: "group_event", audience: .group(group.string)) { _ throws(KithError) in (garbage, garbage) }
        let forged = try await Self.rawCommit(of: bob, group)
        _ = try bob.appendMaking(type: "group_event", audience: .group(group.string)) { _ throws(KithError) in (forged, forged) }
        let before = try await carol.groups.summary(group).epoch
        await Self.deliver(bob, to: carol)
        let report = try await carol.groups.process()
        #expect(report.commits == 0)
        #expect(try await carol.groups.summary(group).epoch == before)
        // The group goes on: Alice's next message still opens.
        try await alice.groups.send(group, text: "still fine")
        await Self.deliver(alice, to: carol)
        let (_, _, texts) = try await Self.view(carol, group)
        #expect(texts == ["still fine"])
    }

    /// A commit Bob builds with the raw MLS state, bypassing the Kith rule.
    static func rawCommit(of account: Account, _ group: GroupID) async throws -> [UInt8] {
        let record = try #require(try account.readGroupStore { access in try access.group(group.string) })
        var state = try GroupMembership(serialized: record.state, ratchets: record.ratchets, now: { UInt64(MetAccounts.now) }).state
        return try state.commit(wireFormat: .privateMessage).message.tlsEncoded
    }

    @Test func aNonMemberReadsNothing() async throws {
        let (alice, _, group) = try await Self.crowd()
        let frank = try MetAccounts.account(0xF0)
        try await frank.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.groups.send(group, text: "members only")
        await Self.deliver(alice, to: frank)
        let stored = try await frank.feed.timeline(feed: alice.feedID, limit: 100).filter { $0.audience == group.audience }
        #expect(!stored.isEmpty && stored.allSatisfy { $0.content == nil })
        await #expect(throws: KithError.self) { try await frank.groups.summary(group) }
    }

    @Test func nothingIsDecryptedTwice() async throws {
        let (alice, others, group) = try await Self.crowd()
        let bob = others[0]
        await Self.deliver(alice, to: bob)
        try await alice.groups.send(group, text: "once")
        await Self.deliver(alice, to: bob)
        await Self.deliver(alice, to: bob)
        let again = try await bob.groups.process()
        #expect(again.opened.isEmpty && again.refused.isEmpty)
        let (_, _, texts) = try await Self.view(bob, group)
        #expect(texts == ["once"])
    }

    @Test func aCrashBetweenStoringAMessageAndAdvancingTheStateLosesNothing() async throws {
        let (alice, others, group) = try await Self.crowd()
        let fault = Mutex(false)
        let bob = try others[0].withTestingHooks(AccountTestingHooks(failAfterGroupContent: {
            fault.withLock { armed in defer { armed = false }; return armed }
        }))
        await Self.deliver(alice, to: bob)
        try await alice.groups.send(group, text: "first")
        try await alice.groups.updateKeys(group)
        try await alice.groups.send(group, text: "second")
        fault.withLock { $0 = true }
        await #expect(throws: KithError.self) { try await bob.feed.importKnown(lines: try await alice.feed.export()) }
        // The failed pass kept neither the content nor the state: nothing read, still epoch 1.
        #expect(try await bob.groups.summary(group).epoch == 1)
        #expect(try await Self.view(bob, group).2.isEmpty)
        let report = try await bob.groups.process()
        #expect(report.opened.count == 2 && report.commits == 1)
        #expect(try await Self.view(bob, group).2 == ["first", "second"])
        #expect(try await bob.groups.summary(group).epoch == 2)
    }
}

/// Two commits for the same epoch: only the committer's counts, in whichever order they arrive.
@Suite struct ConcurrentCommitTests {
    @Test(arguments: [false, true])
    func aMembersCommitLosesToTheCommittersWhateverTheOrder(committerFirst: Bool) async throws {
        let (alice, others, group) = try await GroupHistoryTests.crowd()
        let (bob, carol) = (others[0], others[1])
        await GroupHistoryTests.deliver(alice, to: bob)
        await GroupHistoryTests.deliver(alice, to: carol)
        // Both commit in epoch 1: Bob with the raw MLS state, Alice as the committer.
        let forged = try await GroupHistoryTests.rawCommit(of: bob, group)
        _ = try bob.appendMaking(type: "group_event", audience: .group(group.string)) { _ throws(KithError) in (forged, forged) }
        try await alice.groups.updateKeys(group)
        try await alice.groups.send(group, text: "epoch two")
        if committerFirst {
            await GroupHistoryTests.deliver(alice, to: carol)
            await GroupHistoryTests.deliver(bob, to: carol)
        } else {
            await GroupHistoryTests.deliver(bob, to: carol)
            await GroupHistoryTests.deliver(alice, to: carol)
        }
        #expect(try await carol.groups.summary(group).epoch == 2)
        #expect(try await GroupHistoryTests.view(carol, group).2 == ["epoch two"])
        // Alice, too, stays on her own history.
        await GroupHistoryTests.deliver(bob, to: alice)
        #expect(try await alice.groups.summary(group).epoch == 2)
    }
}
