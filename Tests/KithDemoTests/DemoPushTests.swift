import AsyncHTTPClient
import Crypto
import Foundation
import KithDemo
import KithPush
import KithPushDelivery
import KithServer
import Kith
import KithPushClient
import Synchronization
import Testing

/// Step 13 of the demo end to end on an embedded `kith serve` (gateway, dispatcher with the Web Push provider,
/// push service): registration, hand-off in the direct channel, Bob's knock, Alice's listener, the sync after it.
@Suite(.serialized) struct DemoPushTests {
    static func server() throws -> RendezvousServer {
        let provider = WebPushProvider(
            configuration: try WebPushProviderConfiguration(
                signer: VAPIDSigner(signingKey: P256.Signing.PrivateKey()), subject: "mailto:test@kith.invalid",
                endpointPolicy: WebPushEndpointPolicy(allowPrivateAddresses: true)),
            httpClient: .shared)
        return RendezvousServer(
            configuration: RendezvousServerConfiguration(host: "127.0.0.1", port: 0, push: PushConfiguration(providers: [provider])),
            store: try SQLiteRendezvousStore.open(path: nil), pushStore: try SQLitePushStore.open(path: nil))
    }

    @Test func bobKnocksAliceHearsAndSyncs() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kith-demo-push-\(UUID().uuidString)")
        _ = try await Demo.run(in: directory) { _ in }
        let summary = try await Self.server().serving { url in
            try await Demo.runPush(in: directory, serverURL: url) { _ in }
        }
        #expect(summary.tokensHanded == 10)
        #expect(summary.tokensHeld == 10)
        #expect(summary.knockFromBob)
        #expect(summary.syncedAfterKnock)
    }
}

/// `PushFlows` against a real embedded `kith serve`: the CLI's steps, including 404 drop-and-next and revocation.
@Suite(.serialized) struct PushFlowsEndToEndTests {
    static func met() async throws -> (Account, Account) {
        let alice = try Account.inMemory()
        let bob = try Account.inMemory()
        try await bob.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
        try await alice.contacts.add(cardText: try await bob.contacts.card(displayName: "Bob").text, name: "Bob")
        return (alice, bob)
    }

    static func deliver(_ from: Account, to: Account) async throws {
        _ = try await to.feed.importVerified(lines: try await from.feed.export(), identityKey: from.identity.publicKeys.identityKey)
        try await to.direct.process()
    }

    static func listenOnce(_ account: Account) async throws -> PushFlows.HeardKnock? {
        let heard = HeardBox()
        try await Deadline.run(seconds: 60) {
            try await PushFlows.listen(account, reconnect: ReconnectPolicy(maximumFailures: 3)) { knock in
                heard.value.withLock { $0 = knock }
                return .stop
            }
        }
        return heard.value.withLock { $0 }
    }

    @Test func knockDropRevoke() async throws {
        let (alice, bob) = try await Self.met()
        try await DemoPushTests.server().serving { url in
            let record = try await PushFlows.register(alice, gatewayURL: url)
            #expect(record.gatewayURL == url + "/api/v1/")
            #expect(try await PushFlows.refill(alice).map(\.count) == [10])
            try await Self.deliver(alice, to: bob)

            // Knock, hear, map to Bob.
            #expect(try await PushFlows.knock(bob, contact: alice.feedID).dropped == 0)
            let first = try await Self.listenOnce(alice)
            #expect(first?.contact == bob.feedID && first?.name == "Bob" && first?.replayed == false)

            // Alice revokes every token Bob holds, then hands him fresh ones: his next knock meets 404s on the
            // old ones, drops each and succeeds with the first fresh token.
            try await alice.push.revokeTokens(of: bob.feedID)
            let flushed = await PushFlows.flushRevocations(alice)
            #expect(flushed.revoked == 10 && flushed.pending == 0)
            #expect(try await PushFlows.refill(alice).map(\.count) == [10])
            try await Self.deliver(alice, to: bob)
            #expect(try await PushFlows.knock(bob, contact: alice.feedID).dropped == 9)
            #expect(try await Self.listenOnce(alice)?.contact == bob.feedID)

            // Removing Bob revokes his tokens at the gateway: every knock of his is refused, and he is told.
            _ = try await alice.contacts.remove(bob.feedID)
            #expect(await PushFlows.flushRevocations(alice).pending == 0)

            // Registering again deletes the old account (its tokens with it) and leaves nothing to revoke.
            let carol = try Account.inMemory()
            try await carol.contacts.add(cardText: try await alice.contacts.card(displayName: "Alice").text, name: "Alice")
            try await alice.contacts.add(cardText: try await carol.contacts.card(displayName: "Carol").text, name: "Carol")
            #expect(try await PushFlows.refill(alice).map(\.count) == [10])
            try await PushFlows.register(alice, gatewayURL: url)
            #expect(try await alice.push.pendingRevocations().isEmpty)
            #expect(try await alice.push.tokenRefills().map(\.count) == [10])
            await #expect {
                try await PushFlows.knock(bob, contact: alice.feedID)
            } throws: { error in
                guard case .noTokens(let name) = error as? PushFlows.FlowError else { return false }
                return name == "Alice"
            }
        }
    }
}

/// The knock a listener heard, shared with the test.
final class HeardBox: Sendable {
    let value = Mutex<PushFlows.HeardKnock?>(nil)
}
