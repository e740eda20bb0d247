import Foundation
import Kith
import KithFeed
import KithIdentity
import KithStore
import KithSync

extension Demo {
    /// What the inner-circle step did.
    public struct CircleSummary: Sendable {
        /// Whether both sides held active pools after the first sync.
        public var exchanged = false
        /// Keys in each pool.
        public var poolSize = 0
        /// Whether Bob read Alice's one-time message.
        public var bobRead = false
        /// Whether Alice read Bob's one-time reply.
        public var aliceRead = false
        /// Whether Bob's message sent before he learned of the revocation stayed unreadable for Alice.
        public var lateMessageUnreadable = false
        /// Whether Bob's next message, after he was told, was refused.
        public var nextMessageRefused = false
    }

    /// Step 14 of the tour: Alice and Bob build an inner circle while syncing in person, exchange
    /// one-time messages, then Alice revokes Bob and his next message is refused.
    public static func runCircle(in directory: URL, poolSize: Int = 256, say: @Sendable (String) -> Void) async throws -> CircleSummary {
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: passphrase)
        let bob = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("bob")), passphrase: passphrase)
        var summary = CircleSummary()
        summary.poolSize = poolSize

        say("")
        say("== 14. Inner circle: one-time keys exchanged in person, one fresh key per message, revocation ==")
        try await alice.circle.add(bob.feedID, poolSize: poolSize)
        try await bob.circle.add(alice.feedID, poolSize: poolSize)
        say("Both run `kith circle add` for the other, then sync side by side.")
        try await circleSession(alice, bob)
        let aliceStatus = try await alice.circle.status().first { $0.feedID == bob.feedID.string }?.pools
        let bobStatus = try await bob.circle.status().first { $0.feedID == alice.feedID.string }?.pools
        summary.exchanged = aliceStatus?.state == .active && bobStatus?.state == .active
        say("Inside the Noise link (request, offer, ack, commit; nonces and a transcript hash checked) each generated \(poolSize) P-256 key pairs for the other and handed over the public halves.")
        say("Alice's pools: \(aliceStatus.map { "\($0.state.rawValue), \($0.peerRemaining) keys to send, \($0.ownRemaining) to receive" } ?? "none"); private halves are sealed in SQLite.")

        try await alice.circle.send("Only you and I will ever read this — and only once.", to: bob.feedID)
        try await circleSession(alice, bob)
        let bobView = try await bob.direct.conversation(with: alice.feedID).filter { $0.audience == "otk:" + bob.feedID.string }
        if case .post(let post)? = bobView.last?.content {
            summary.bobRead = true
            say("Bob reads Alice's NanoTDF message: \"\(post.body)\"; the private key it used is deleted in the same transaction.")
        }
        try await bob.circle.send("Same here. Key used, key gone.", to: alice.feedID)
        try await circleSession(alice, bob)
        let aliceView = try await alice.direct.conversation(with: bob.feedID).filter { $0.audience == "otk:" + alice.feedID.string }
        if case .post(let post)? = aliceView.last?.content {
            summary.aliceRead = true
            say("Alice reads Bob's reply: \"\(post.body)\".")
        }

        try await alice.circle.revoke(bob.feedID)
        say("Alice revokes Bob: both pools are deleted on her side at once.")
        let late = try await bob.circle.send("Are we still close?", to: alice.feedID)
        try await circleSession(alice, bob)
        let lateRead = try await alice.direct.conversation(with: bob.feedID).first { $0.messageID == late.messageID }?.content
        summary.lateMessageUnreadable = lateRead == nil
        say("Bob, not told yet, sent one more; at the next sync Alice cannot open it (\(summary.lateMessageUnreadable ? "no key: refused" : "READ")) and Bob is told over the link.")
        do {
            try await bob.circle.send("Hello?", to: alice.feedID)
        } catch .circle(.noPool) {
            summary.nextMessageRefused = true
        } catch {
            throw error
        }
        say("Bob's next message is \(summary.nextMessageRefused ? "refused: no pool until they meet and exchange again" : "NOT refused").")
        return summary
    }

    /// One sync session between the two homes over the simulated radio, through ``SyncAgent`` (the
    /// side phase that carries the pool exchange runs first).
    private static func circleSession(_ alice: Account, _ bob: Account) async throws {
        let aliceAgent = SyncAgent(account: alice)
        let bobAgent = SyncAgent(account: bob)
        let (central, peripheral) = SimulatedBLELink.makePair()
        async let bobSide: SyncSessionReport? = {
            guard let link = try? await bobAgent.accept(over: peripheral) else { return nil }
            return await bobAgent.run(link: link, clock: peripheral)
        }()
        let contact = try await alice.contacts.record(bob.feedID)
        if let link = try? await aliceAgent.initiate(over: central, contact: contact) {
            _ = await aliceAgent.run(link: link, clock: central)
        } else {
            await central.close()
        }
        _ = await bobSide
    }
}
