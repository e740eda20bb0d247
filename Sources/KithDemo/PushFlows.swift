import Foundation
import Kith
import KithCanonical
import KithFeed
import KithIdentity
import KithPush
import KithPushClient
import KithStore

/// The push flows that combine the facade (state, hand-off) and `KithPushClient` (HTTP): registration, token
/// refills, revocations, knocking and listening. Shared by `kith push …`, `kith knock`, `kith knocks listen` and
/// the demo's step 13; an app can follow the same steps (docs/PUSH-CLIENT.md).
public enum PushFlows {
    /// A flow that cannot go on, with what to do.
    public enum FlowError: Error, Sendable, CustomStringConvertible {
        /// This identity has no push registration.
        case notRegistered
        /// No unused token from the contact is left.
        case noTokens(name: String)

        /// One sentence with the cause and what to do.
        public var description: String {
            switch self {
            case .notRegistered: "not registered for push knocks: run `kith push register --server URL` first"
            case .noTokens(let name):
                "no push tokens from \(name) left: sync with them so their refill arrives (they must have run `kith push register`)"
            }
        }
    }

    /// One contact's refill.
    public struct Refilled: Sendable, Equatable {
        /// The contact.
        public let contact: FeedID
        /// Its shown name (untrusted: render sanitized).
        public let name: String
        /// Tokens issued and queued in a `push_tokens` message.
        public let count: Int
    }

    /// What a knock took.
    public struct KnockOutcome: Sendable, Equatable {
        /// The contact's gateway API base the knock went to.
        public let endpoint: String
        /// Tokens the gateway refused (404) and that were dropped before one worked.
        public let dropped: Int
    }

    /// A knock as the listener reports it.
    public struct HeardKnock: Sendable, Equatable {
        /// The contact the token was issued to, nil for a token this identity did not issue (or revoked).
        public let contact: FeedID?
        /// Its shown name (untrusted: render sanitized), nil with `contact`.
        public let name: String?
        /// The knock's optional data (untrusted).
        public let data: String?
        /// True when the token had knocked before.
        public let replayed: Bool
    }

    /// Registers this identity: an anonymous account at the gateway, a fresh subscription at the push service
    /// with fresh RFC 8291 keys, the Web Push device, then stores it all (secrets sealed). A previous
    /// registration's subscription and gateway account are deleted (best effort; the account's deletion revokes every
    /// token it issued); when the old gateway cannot be reached, its tokens stay queued for revocation.
    @discardableResult
    public static func register(_ account: Account, gatewayURL: String, pushServiceURL: String? = nil) async throws -> PushRegistrationRecord {
        let gateway = try PushGatewayClient(baseURL: gatewayURL)
        let service = try PushServiceClient(baseURL: pushServiceURL ?? gatewayURL)
        if let previous = try await account.push.registration() {
            if let old = try? PushServiceClient(baseURL: previous.pushServiceURL) {
                try? await old.deleteSubscription(secret: previous.secrets.subscriptionSecret)
            }
            var accountDeleted = false
            if let oldGateway = try? PushGatewayClient(baseURL: previous.gatewayURL) {
                accountDeleted = (try? await oldGateway.deleteAccount(username: previous.accountUsername, authToken: previous.secrets.authToken)) != nil
            }
            try await account.push.forgetRegistration()
            if accountDeleted { try await account.push.confirmRevocations(try await account.push.pendingRevocations()) }
        }
        let username = "kith-" + Hex.encode(randomBytes(10))
        let password = Hex.encode(randomBytes(24))
        let gatewayAccount = try await gateway.createAccount(username: username, password: password)
        let subscription = try await service.createSubscription()
        let keys = WebPushReceiverKeys.generate()
        let device = try await gateway.registerWebPushDevice(
            endpoint: subscription.endpoint, keys: keys.subscriberKeys, name: "kith", authToken: gatewayAccount.authToken)
        let record = PushRegistrationRecord(
            gatewayURL: gateway.apiBase, pushServiceURL: service.baseURL, accountUsername: gatewayAccount.username,
            secrets: PushRegistrationSecrets(
                accountPassword: password, authToken: gatewayAccount.authToken, deviceID: device.id, endpoint: subscription.endpoint,
                subscriptionSecret: subscription.secret, receiverPrivateKey: Array(keys.privateKey.rawRepresentation), receiverAuthSecret: keys.authSecret),
            registeredAt: Int64(Date().timeIntervalSince1970 * 1000))
        try await account.push.saveRegistration(record)
        return record
    }

    /// Issues fresh tokens at the gateway to every contact holding fewer than ``PushTokenPolicy/lowWater`` unused ones
    /// (each contact its own tokens) and queues them in `push_tokens` direct messages; then revokes what is pending.
    /// Does nothing when not registered.
    public static func refill(_ account: Account) async throws -> [Refilled] {
        guard let registration = try await account.push.registration() else { return [] }
        let gateway = try PushGatewayClient(baseURL: registration.gatewayURL)
        var done: [Refilled] = []
        for refill in try await account.push.tokenRefills() {
            let issued = try await gateway.createTokens(
                count: min(refill.count, PushTokens.maxTokens), webPushDevice: registration.secrets.deviceID, authToken: registration.secrets.authToken)
            let expiry = issued.compactMap(\.expiresAt).min()
            do {
                try await account.push.handOverTokens(issued.map(\.token), to: refill.contact, expiresAt: expiry)
            } catch {
                for token in issued { _ = try? await gateway.revokeToken(token.token, authToken: registration.secrets.authToken) }
                throw error
            }
            done.append(Refilled(contact: refill.contact, name: refill.name, count: issued.count))
        }
        _ = await flushRevocations(account)
        return done
    }

    /// DELETEs at the gateway the tokens of removed or revoked contacts. Best effort: what fails stays pending.
    ///
    /// - Returns: how many were revoked and how many are still pending.
    public static func flushRevocations(_ account: Account) async -> (revoked: Int, pending: Int) {
        guard let registration = try? await account.push.registration(),
              let gateway = try? PushGatewayClient(baseURL: registration.gatewayURL),
              let pending = try? await account.push.pendingRevocations() else { return (0, 0) }
        var revoked: [WhitelistToken] = []
        for token in pending {
            guard (try? await gateway.revokeToken(token, authToken: registration.secrets.authToken)) != nil else { break }
            revoked.append(token)
        }
        try? await account.push.confirmRevocations(revoked)
        return (revoked.count, pending.count - revoked.count)
    }

    /// Knocks on a contact with the next token they handed over; a token the gateway refuses (404) is dropped and
    /// the next one tried.
    ///
    /// - Throws: ``FlowError/noTokens(name:)`` when none is left, a ``PushClientError`` when the gateway is
    ///   unreachable or rate-limits.
    public static func knock(_ account: Account, contact: FeedID, data: String? = nil) async throws -> KnockOutcome {
        var dropped = 0
        while dropped < 200 {
            guard let ticket = try await account.push.takeToken(for: contact) else { break }
            let gateway = try PushGatewayClient(baseURL: ticket.endpoint)
            do {
                try await gateway.knock(token: ticket.token, data: data)
                return KnockOutcome(endpoint: gateway.apiBase, dropped: dropped)
            } catch PushClientError.tokenRejected {
                try await account.push.dropToken(ticket.token, from: contact)
                dropped += 1
            }
        }
        throw FlowError.noTokens(name: await account.contacts.displayName(of: contact))
    }

    /// Listens for knocks on this identity's subscription; each is mapped to the contact its token was issued to
    /// (and the token marked used) before `onKnock` gets it. Returns when `onKnock` says stop.
    public static func listen(
        _ account: Account, reconnect: ReconnectPolicy = .default,
        onRejected: @escaping @Sendable (PushClientError) async -> Void = { _ in },
        onKnock: @escaping @Sendable (HeardKnock) async throws -> KnockListenDecision
    ) async throws {
        guard let registration = try await account.push.registration() else { throw FlowError.notRegistered }
        let service = try PushServiceClient(baseURL: registration.pushServiceURL)
        let keys = try WebPushReceiverKeys(rawPrivateKey: registration.secrets.receiverPrivateKey, authSecret: registration.secrets.receiverAuthSecret)
        try await service.listen(subscriptionSecret: registration.secrets.subscriptionSecret, keys: keys, reconnect: reconnect, onRejected: onRejected) { knock in
            let origin = try await account.push.knockOrigin(token: knock.body.token)
            var name: String?
            if let peer = origin?.peer { name = await account.contacts.displayName(of: peer) }
            return try await onKnock(HeardKnock(contact: origin?.peer, name: name, data: knock.body.data, replayed: origin?.wasUsedBefore ?? false))
        }
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
