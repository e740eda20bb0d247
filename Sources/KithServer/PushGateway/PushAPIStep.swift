import Logging

/// What the gateway and the push service share: a rate-limit check and a store call that turns a store
/// failure into a logged 500.
protocol PushAPIStep {
    var clock: any ServerClock { get }
    var logger: Logger { get }
}

extension PushAPIStep {
    /// Takes one token from `limiter` for `key`; 429 with the wait when none is left.
    func limit(_ limiter: RateLimiter, _ key: String) throws(GatewayRejection) {
        if case .limited(let seconds) = limiter.take(key, now: clock.nowMilliseconds()) {
            throw .rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// Runs one store call; a failure is logged (never its arguments) and answered 500.
    func stored<Value>(_ body: () async throws(PushStoreError) -> Value) async throws(GatewayRejection) -> Value {
        do throws(PushStoreError) {
            return try await body()
        } catch {
            logger.error("push store failed", metadata: ["error": "\(error)"])
            throw .internalError
        }
    }
}
