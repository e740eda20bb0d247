import Foundation
import Kith
import KithFeed
import KithIdentity
import KithPushClient
import KithSync
import Synchronization

extension Demo {
    /// What the push step did.
    public struct PushSummary: Sendable {
        /// Tokens Alice handed Bob in a `push_tokens` direct message.
        public var tokensHanded = 0
        /// Tokens Bob held after syncing Alice's feed.
        public var tokensHeld = 0
        /// Whether Alice's listener mapped the knock to Bob.
        public var knockFromBob = false
        /// Whether the sync after the knock brought Bob's direct message to Alice.
        public var syncedAfterKnock = false
    }

    /// Step 13 of the tour: Alice registers for push knocks at the gateway and push service of `serverURL`; her tokens
    /// reach Bob in their direct channel; Bob knocks; Alice's listener hears it, maps it to Bob, and syncs with him.
    public static func runPush(in directory: URL, serverURL: String, say: @Sendable (String) -> Void) async throws -> PushSummary {
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: passphrase)
        let bob = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("bob")), passphrase: passphrase)
        var summary = PushSummary()

        say("")
        say("== 13. Knock: Bob wakes Alice's device through a push gateway ==")
        try await PushFlows.register(alice, gatewayURL: serverURL)
        say("Alice registers at \(serverURL): an anonymous gateway account, a push subscription with fresh RFC 8291 keys, her device.")
        let refilled = try await PushFlows.refill(alice)
        summary.tokensHanded = refilled.first { $0.contact == bob.feedID }?.count ?? 0
        say("She issues \(summary.tokensHanded) whitelist tokens for Bob alone and hands them over in a push_tokens direct message.")
        _ = try await bob.feed.importVerified(lines: try await alice.feed.export(), identityKey: alice.identity.publicKeys.identityKey)
        try await bob.direct.process()
        summary.tokensHeld = try await bob.push.tokenPools().first { $0.peer == alice.feedID }?.heldUnused ?? 0
        say("Bob syncs Alice's feed: he now holds \(summary.tokensHeld) tokens to knock on her with (nobody else has them).")

        try await bob.direct.send("Are you free tonight?", to: alice.feedID)
        let bobListener = try await TCPSyncListener.bind(host: "127.0.0.1", port: 0)
        let bobAgent = SyncAgent(account: bob)
        let serving = Task { await bobAgent.serve(listener: bobListener, sessionLimit: 1) }
        let heard = KnockBox()
        let port = bobListener.port
        let listening = Task {
            try await PushFlows.listen(alice, reconnect: ReconnectPolicy(maximumFailures: 5)) { knock in
                heard.value.withLock { $0 = knock }
                // The knock says who wants to talk: sync with them now.
                let agent = SyncAgent(account: alice)
                let link = try await agent.initiate(dialing: { () async throws(SyncTransportError) -> any SyncTransport in
                    try await TCPTransport.connect(host: "127.0.0.1", port: port)
                }, contact: try await alice.contacts.record(bob.feedID))
                _ = await agent.run(link: link)
                return .stop
            }
        }
        let outcome = try await PushFlows.knock(bob, contact: alice.feedID)
        say("Bob wrote Alice a direct message and knocks: one token POSTed to \(outcome.endpoint)messages/, no content.")
        // A knock that never arrives (a delivery that failed for good) must not hang the tour.
        do {
            try await Deadline.run(seconds: 60) { try await listening.value }
        } catch let error as Deadline.Exceeded {
            serving.cancel()
            await bobListener.close()
            say("Alice's listener heard no knock (\(error)); the gateway may have failed to deliver.")
            return summary
        }
        await serving.value
        await bobListener.close()
        let knock = heard.value.withLock { $0 }
        summary.knockFromBob = knock?.contact == bob.feedID
        say("Alice's listener decrypts the Web Push message and maps the token to its holder: «\(knock?.name ?? "unknown")» knocked.")
        let conversation = try await alice.direct.conversation(with: bob.feedID)
        summary.syncedAfterKnock = conversation.contains { message in
            if case .post(let post)? = message.content { return post.body == "Are you free tonight?" }
            return false
        }
        say("She syncs with Bob right away and reads: \(summary.syncedAfterKnock ? "\"Are you free tonight?\"" : "(nothing: the sync did NOT bring it)")")
        say("The gateway and push service saw a token and ciphertext only; removing Bob would revoke his tokens at the gateway.")
        return summary
    }
}

/// The knock the demo's listener heard, shared with the task that waits for it.
final class KnockBox: Sendable {
    let value = Mutex<PushFlows.HeardKnock?>(nil)
}
