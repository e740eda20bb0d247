import KithCanonical
import KithFeed
import KithIdentity
import KithPush
import KithStore

/// Push knocks, the client side (issue 16, docs/PUSH-CLIENT.md). The facade keeps the registration and the
/// token pools and hands tokens over in `push_tokens` direct messages; it makes no HTTP call itself: an app
/// (or the CLI) talks to the gateway and push service with `KithPushClient` and reports back here.
///
/// ```swift
/// try await account.push.saveRegistration(record)                    // after registering with KithPushClient
/// for refill in try await account.push.tokenRefills() {
///     let tokens = try await gateway.createTokens(count: refill.count, ...)
///     try await account.push.handOverTokens(tokens, to: refill.contact, expiresAt: expiry)
/// }
/// if let held = try await account.push.takeToken(for: bob) { try await gateway.knock(held) }
/// ```
extension Account {
    // MARK: Registration

    func pushRegistrationBlocking() throws(KithError) -> PushRegistrationRecord? {
        do throws(StoreError) { return try store.pushRegistration(local: feedID) } catch { throw .store(error) }
    }

    // MARK: Tokens contacts handed over

    static let notRegistered = "not registered for push knocks: run `kith push register --server URL` first"
}

/// A token to knock on one contact with: POST it to `endpoint` + `messages/`.
public struct KnockTicket: Sendable, Equatable, CustomStringConvertible {
    /// The contact the knock wakes.
    public let contact: FeedID
    /// The whitelist token (used once).
    public let token: WhitelistToken
    /// The contact's gateway API base (`…/api/v1/`), as they handed it over.
    public let endpoint: String

    /// Redacted.
    public var description: String { "KnockTicket(contact: \(contact.string), token: \(token), endpoint: \(endpoint))" }
}

extension Account.Push {
    /// Stores this identity's push registration (secrets sealed).
    public func saveRegistration(_ record: PushRegistrationRecord) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { try account.store.savePushRegistration(record, local: account.feedID) } catch { throw .store(error) }
        }
    }

    /// This identity's push registration, nil when not registered.
    public func registration() async throws(KithError) -> PushRegistrationRecord? {
        try await BlockingWork.run { () throws(KithError) in try account.pushRegistrationBlocking() }
    }

    /// Forgets the registration; every token issued to a contact is queued for revocation (``Account/Push/pendingRevocations()``).
    public func forgetRegistration() async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { try account.store.deletePushRegistration(local: account.feedID) } catch { throw .store(error) }
        }
    }

    /// Contacts (verified, so a direct message can reach them) holding fewer than ``PushTokenPolicy/lowWater`` unused
    /// tokens of this identity, with how many to issue to reach ``PushTokenPolicy/refillTarget``. Empty when not registered.
    public func tokenRefills() async throws(KithError) -> [PushTokenRefill] {
        try await BlockingWork.run { () throws(KithError) in
            guard try account.pushRegistrationBlocking() != nil else { return [] }
            let pools: [PushTokenPoolRecord]
            let contacts: [ContactRecord]
            do throws(StoreError) {
                pools = try account.store.pushTokenPools()
                contacts = try account.store.contacts()
            } catch { throw .store(error) }
            let unused = Dictionary(pools.map { ($0.peer, $0.issuedUnused) }, uniquingKeysWith: { first, _ in first })
            return contacts.compactMap { contact in
                guard contact.keyIsVerified, contact.feedID != account.feedID else { return nil }
                let held = unused[contact.feedID] ?? 0
                guard held < PushTokenPolicy.lowWater else { return nil }
                return PushTokenRefill(contact: contact.feedID, name: contact.shownName, count: PushTokenPolicy.refillTarget - held)
            }
        }
    }

    /// Records tokens freshly created at the gateway for `contact` alone and hands them over in `push_tokens`
    /// direct messages (at most `PushTokens.maxTokens` each). When a message cannot be sent, its tokens are
    /// forgotten again (and should be revoked at the gateway by the caller).
    ///
    /// - Parameters:
    ///   - tokens: 1...100 tokens, none handed to anyone else.
    ///   - contact: the contact who may knock with them.
    ///   - expiresAt: the gateway's expiry, seconds since 1970, or nil.
    /// - Returns: the envelopes sent.
    /// - Throws: ``KithError/input(_:)`` when not registered or `tokens` is empty; a contacts or store error otherwise.
    @discardableResult
    public func handOverTokens(_ tokens: [WhitelistToken], to contact: FeedID, expiresAt: Int64?) async throws(KithError) -> [Envelope] {
        try await BlockingWork.run { () throws(KithError) in
            guard let registration = try account.pushRegistrationBlocking() else { throw .input(.invalid(Account.notRegistered)) }
            guard !tokens.isEmpty else { throw .input(.invalid("no push tokens to hand over")) }
            let record = try account.contactRecordBlocking(contact)
            let endpoint = PushTokenPolicy.apiBase(gatewayURL: registration.gatewayURL)
            var envelopes: [Envelope] = []
            var start = 0
            while start < tokens.count {
                let part = Array(tokens[start..<min(start + PushTokens.maxTokens, tokens.count)])
                let bytes = part.map(\.bytes)
                do throws(StoreError) { try account.store.recordIssuedPushTokens(bytes, to: record.feedID, expiresAt: expiresAt) } catch { throw .store(error) }
                let content = PushTokens(endpoint: endpoint, tokens: part.map(\.hex), dateExpires: expiresAt.map(PushTokens.formatTime))
                do throws(KithError) {
                    envelopes.append(try account.sendDirectBlocking(.pushTokens(content), to: record.feedID))
                } catch {
                    try? account.store.forgetIssuedPushTokens(bytes)
                    throw error
                }
                start += part.count
            }
            return envelopes
        }
    }

    /// Maps an incoming knock's token to the contact it was issued to, and marks the token used (it is spent:
    /// the next refill replaces it). The lookup is by keyed digest, never a byte comparison against stored tokens.
    ///
    /// - Returns: nil for a token this identity did not issue (or one that expired).
    public func knockOrigin(token: WhitelistToken) async throws(KithError) -> PushKnockOrigin? {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.takeIssuedPushToken(token.bytes, now: account.clock()) } catch { throw .store(error) }
        }
    }

    /// Queues every token issued to `contact` for revocation at the gateway (also done by ``Account/Contacts/remove(_:)``).
    public func revokeTokens(of contact: FeedID) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { try account.store.revokeIssuedPushTokens(to: contact) } catch { throw .store(error) }
        }
    }

    /// Tokens to DELETE at the gateway: issued to removed or revoked contacts, or spent by a knock. Confirm with
    /// ``Account/Push/confirmRevocations(_:)``.
    public func pendingRevocations() async throws(KithError) -> [WhitelistToken] {
        try await BlockingWork.run { () throws(KithError) in
            let raw: [[UInt8]]
            do throws(StoreError) { raw = try account.store.pendingPushRevocations() } catch { throw .store(error) }
            return raw.compactMap { try? WhitelistToken(bytes: $0) }
        }
    }

    /// Forgets revoked tokens the gateway deleted (or answered 404 for).
    public func confirmRevocations(_ tokens: [WhitelistToken]) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { try account.store.confirmPushRevocations(tokens.map(\.bytes)) } catch { throw .store(error) }
        }
    }

    /// Takes the next unused token `contact` handed over, marked used at once (a token knocks once).
    ///
    /// - Returns: nil when none is left (ask the contact to sync: their refill comes in a direct message).
    public func takeToken(for contact: FeedID) async throws(KithError) -> KnockTicket? {
        try await BlockingWork.run { () throws(KithError) in
            let record = try account.contactRecordBlocking(contact)
            let held: HeldPushToken?
            do throws(StoreError) { held = try account.store.takeHeldPushToken(from: record.feedID, now: account.clock()) } catch { throw .store(error) }
            guard let held, let token = try? WhitelistToken(bytes: held.token) else { return nil }
            return KnockTicket(contact: record.feedID, token: token, endpoint: held.endpoint)
        }
    }

    /// Marks a held token dead: the gateway answered 404 (unknown, expired or revoked).
    public func dropToken(_ token: WhitelistToken, from contact: FeedID) async throws(KithError) {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { try account.store.markHeldPushTokenDead(token.bytes, from: contact) } catch { throw .store(error) }
        }
    }

    /// Token counts with every contact that has any.
    public func tokenPools() async throws(KithError) -> [PushTokenPoolRecord] {
        try await BlockingWork.run { () throws(KithError) in
            do throws(StoreError) { return try account.store.pushTokenPools() } catch { throw .store(error) }
        }
    }
}
