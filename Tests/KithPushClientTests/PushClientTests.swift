import Foundation
import Hummingbird
import HummingbirdTesting
import KithCanonical
import KithPush
import Testing
@testable import KithPushClient

/// `PushGatewayClient` and `PushServiceClient` against a loopback stand-in of the contract (MockPushServer).
@Suite(.serialized) struct PushClientTests {
    @Test func registerIssueKnockListenAndRevoke() async throws {
        let mock = MockPushServer()
        try await mock.makeApplication().test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let gateway = try PushGatewayClient(baseURL: base)
            #expect(gateway.apiBase == base + "/api/v1/")
            let account = try await gateway.createAccount(username: "kith-a", password: "pw")
            #expect(account.created && account.authToken == MockPushServer.authToken)
            #expect(!account.description.contains(MockPushServer.authToken))
            #expect(try await gateway.createAccount(username: "kith-a", password: "pw").created == false)
            await #expect(throws: PushClientError.invalidCredentials) { try await gateway.createAccount(username: "kith-a", password: "wrong") }

            let service = try PushServiceClient(baseURL: base)
            let subscription = try await service.createSubscription()
            #expect(subscription.secret == MockPushServer.secret)
            let keys = WebPushReceiverKeys.generate()
            let device = try await gateway.registerWebPushDevice(endpoint: subscription.endpoint, keys: keys.subscriberKeys, authToken: account.authToken)
            #expect(device.id == "dev-1")

            let batch = try await gateway.createTokens(count: 5, webPushDevice: device.id, authToken: account.authToken)
            #expect(batch.count == 5 && Set(batch.map(\.token)).count == 5)
            #expect(batch[0].expiresAt == 1_893_456_000)
            let single = try await gateway.createTokens(count: 1, webPushDevice: device.id, authToken: account.authToken)
            #expect(single.count == 1)

            try await gateway.knock(token: batch[0].token, data: "hi")
            try await gateway.knock(token: batch[1].token)
            let heard = Locked<[IncomingKnock]>([])
            try await service.listen(subscriptionSecret: subscription.secret, keys: keys, reconnect: ReconnectPolicy(maximumFailures: 3)) { knock in
                let count = heard.update { $0.append(knock); return $0.count }
                return count == 2 ? .stop : .keepListening
            }
            let knocks = heard.value
            #expect(knocks.map(\.body.token) == [batch[0].token, batch[1].token])
            #expect(knocks.map(\.body.data) == ["hi", nil])
            // Both were acknowledged, so they are gone from the service.
            #expect(await eventually { mock.state.withLock { $0.acked == ["m1", "m2"] && $0.queue.isEmpty } })

            #expect(try await gateway.revokeToken(batch[2].token, authToken: account.authToken))
            #expect(try await gateway.revokeToken(batch[2].token, authToken: account.authToken) == false)
            await #expect(throws: PushClientError.tokenRejected) { try await gateway.knock(token: batch[2].token) }
            await #expect(throws: PushClientError.tokenRejected) { try await gateway.knock(token: WhitelistToken.generate()) }
            mock.state.withLock { _ = $0.rateLimited.insert(batch[3].token.hex) }
            await #expect(throws: PushClientError.rateLimited(retryAfterSeconds: 7)) { try await gateway.knock(token: batch[3].token) }
            try await service.deleteSubscription(secret: subscription.secret)
        }
    }

    @Test func messagesThatAreNotKnocksAreDroppedAndReported() async throws {
        let mock = MockPushServer()
        let keys = WebPushReceiverKeys.generate()
        let stranger = WebPushReceiverKeys.generate()
        // Encrypted to another key; a knock with message text; a valid knock last.
        mock.enqueue(raw: try WebPushEncryption.encrypt(Array("x".utf8), for: stranger.subscriberKeys))
        let chatty = #"{"message":{"data":null,"text":"secret words","token":"1daf13e01982d3029cf09ae3d027a62923f0f2b6"}}"#
        mock.enqueue(raw: try WebPushEncryption.encrypt(Array(chatty.utf8), for: keys.subscriberKeys))
        let token = WhitelistToken.generate()
        mock.enqueue(raw: try WebPushEncryption.encrypt(KnockBody(token: token).bytes, for: keys.subscriberKeys))
        try await mock.makeApplication().test(.live) { client in
            let service = try PushServiceClient(baseURL: "http://127.0.0.1:\(try #require(client.port))")
            let rejected = Locked<[PushClientError]>([])
            let heard = Locked<[WhitelistToken]>([])
            try await service.listen(subscriptionSecret: MockPushServer.secret, keys: keys, reconnect: ReconnectPolicy(maximumFailures: 3),
                                     onRejected: { error in rejected.update { $0.append(error) } }) { knock in
                heard.update { $0.append(knock.body.token) }
                return .stop
            }
            #expect(heard.value == [token])
            #expect(rejected.value.count == 2)
            #expect(await eventually { mock.state.withLock { $0.acked == ["m1", "m2", "m3"] } })
        }
    }

    @Test func aFailingHandlerLeavesTheMessageForTheNextConnection() async throws {
        struct Crash: Error {}
        let mock = MockPushServer()
        let keys = WebPushReceiverKeys.generate()
        mock.enqueue(raw: try WebPushEncryption.encrypt(KnockBody(token: WhitelistToken.generate()).bytes, for: keys.subscriberKeys))
        try await mock.makeApplication().test(.live) { client in
            let service = try PushServiceClient(baseURL: "http://127.0.0.1:\(try #require(client.port))")
            await #expect(throws: Crash.self) {
                try await service.listen(subscriptionSecret: MockPushServer.secret, keys: keys) { _ in throw Crash() }
            }
            #expect(mock.state.withLock { ($0.acked.count, $0.queue.count) } == (0, 1))
        }
    }

    @Test func unreachableServersAndBadURLsAreTyped() async throws {
        #expect(throws: PushClientError.invalidURL("ftp://x")) { try PushGatewayClient(baseURL: "ftp://x") }
        #expect(throws: PushClientError.invalidURL("http://a b")) { try PushServiceClient(baseURL: "http://a b") }
        let gateway = try PushGatewayClient(baseURL: "http://127.0.0.1:1", timeout: .seconds(2))
        await #expect {
            try await gateway.knock(token: WhitelistToken.generate())
        } throws: { error in
            if case .unreachable = error as? PushClientError { return true }
            return false
        }
        let service = try PushServiceClient(baseURL: "http://127.0.0.1:1/")
        #expect(service.socketURL(secret: "abc") == "ws://127.0.0.1:1/push/subscriptions/abc/ws")
        // The error names the server, never the path that holds the subscription secret.
        await #expect {
            try await service.listen(subscriptionSecret: "s3cretCapability", keys: WebPushReceiverKeys.generate(),
                                     reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maximumFailures: 2)) { _ in .stop }
        } throws: { error in
            guard case .unreachable(let url, _) = error as? PushClientError else { return false }
            return url == "ws://127.0.0.1:1" && !String(describing: error).contains("s3cretCapability")
        }
        await #expect {
            try await service.deleteSubscription(secret: "s3cretCapability")
        } throws: { error in
            guard case .unreachable(let url, _) = error as? PushClientError else { return false }
            return url == "http://127.0.0.1:1" && !String(describing: error).contains("s3cretCapability")
        }
    }
}

@Suite struct PushServiceFrameTests {
    @Test func framesAreBounded() {
        for text in [
            #"{"type":"other","id":"m1","body":"AAAA"}"#,
            #"{"type":"message","id":"","body":"AAAA"}"#,
            #"{"type":"message","id":"a b","body":"AAAA"}"#,
            #"{"type":"message","id":"m1","body":"not base64!"}"#,
            #"{"type":"message","id":"m1","body":""}"#,
            #"{"type":"message","id":"m1"}"#,
        ] {
            #expect(throws: PushClientError.self, "\(text)") { try PushServiceFrame(bytes: Array(text.utf8)) }
        }
        #expect(PushServiceFrame.ack("m1") == #"{"id":"m1","type":"ack"}"#)
    }

    @Test func onlyRFC8030UrgenciesAndTopicsPassOn() throws {
        let valid = try PushServiceFrame(bytes: Array(#"{"type":"message","id":"m1","body":"AAAA","urgency":"very-low","topic":"knock_1"}"#.utf8))
        #expect(valid.urgency == "very-low" && valid.topic == "knock_1")
        let odd = try PushServiceFrame(bytes: Array(#"{"type":"message","id":"m1","body":"AAAA","urgency":"\u001b[31murgent","topic":"a b\nc"}"#.utf8))
        #expect(odd.urgency == nil && odd.topic == nil)
    }
}
