import Hummingbird
import KithCanonical
import KithPush
import KithPushDelivery

extension PushGatewayAPI {
    /// The knock, `POST messages/` `{token, data?, priority?}` without auth → 202 echo | 400 | 404
    /// (empty body: unknown, expired or revoked token) | 413 | 429. Delivery is queued; the reply
    /// never waits for it.
    func knock(_ request: Request, _ context: RendezvousRequestContext) async throws(GatewayRejection) -> Response {
        do throws(GatewayRejection) {
            let body = try await GatewayBody.object(request, limit: limits.maximumBodyBytes)
            let tokenText = try GatewayBody.requiredString(body, "token", maximumLength: 200)
            let data = try GatewayBody.optionalString(body, "data", maximumLength: 100)
            var priority = PushPriority.low
            if let text = try GatewayBody.optionalString(body, "priority", maximumLength: 16) {
                guard let chosen = PushPriority(rawValue: text) else { throw .field("priority", "\"\(text)\" is not a valid choice.") }
                priority = chosen
            }
            // Limited after validation (a malformed knock is a 400 whatever the rate) and before any lookup.
            try limit(knocksPerSource, "knock:" + context.sourceKey)
            // A token of another shape cannot exist: the same empty 404 as an unknown one.
            guard let token = try? WhitelistToken(hex: tokenText) else { throw .notFound }
            let now = clock.nowMilliseconds()
            let digest = token.storageDigest
            guard let devices = try await stored({ () async throws(PushStoreError) in try await store.knockTargets(tokenDigest: digest, now: now) }) else {
                throw .notFound
            }
            try limit(knocksPerToken, "token:" + Hex.encode(digest.prefix(16)))
            dispatcher.dispatch(payload: KnockBody(token: token, data: data).bytes, priority: priority, to: devices)
            metrics.knock(.accepted)
            let echo: JSONObject = ["token": .string(tokenText), "data": data.map(JSONValue.string) ?? .null, "priority": .string(priority.rawValue)]
            return RESTResponse.json(.accepted, echo)
        } catch {
            switch error.status {
            case .notFound: metrics.knock(.notFound)
            case .tooManyRequests: metrics.knock(.rateLimited)
            case .internalServerError: break
            default: metrics.knock(.invalid)
            }
            throw error
        }
    }
}
