/// The two budgets on guessing join codes: one per source address and one for the whole node, of
/// which only wrong guesses are spent (docs/SERVER.md, "Guessing").
///
/// Every call that can tell a live code from a free one (an accept, a check, a create) takes a
/// token from both budgets **before** the store is asked (``spendSource(_:now:)``, ``spendNode(now:)``), so a caller whose budget is empty gets
/// `429` whatever the code, never an answer that depends on it. Once the answer is known,
/// ``settle(right:refundingSource:now:)`` gives back what a right guess should not cost.
struct JoinCodeGuessing: Sendable {
    let perSource: RateLimiter
    let perNode: RateLimiter
    let metrics: ServerMetrics

    /// The one key of the node-wide budget.
    private static let nodeKey = "node"

    init(limits: RendezvousServerLimits, metrics: ServerMetrics) {
        perSource = RateLimiter(rule: limits.guessesPerSource, maximumKeys: limits.rateLimiterKeys)
        perNode = RateLimiter(rule: limits.wrongGuessesPerNode, maximumKeys: 16)
        self.metrics = metrics
    }

    /// Takes one of the source's guesses; `429` with the wait when none is left.
    func spendSource(_ source: String, now: Int64) throws(RESTRejection) {
        if case .limited(let seconds) = perSource.take(source, now: now) {
            throw RESTRejection.rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// Takes one of the node's guesses; `429` with the wait when none is left (the source's token
    /// stays spent, so hammering an empty node budget costs the caller too).
    func spendNode(now: Int64) throws(RESTRejection) {
        if case .limited(let seconds) = perNode.take(Self.nodeKey, now: now) {
            throw RESTRejection.rateLimited(retryAfterSeconds: seconds)
        }
    }

    /// The answer is known: a right guess gives back the node's token (and the source's, when
    /// `refundingSource` names it: a create that found its code free); a wrong one is counted in
    /// `kith_wrong_guesses_total`.
    func settle(right: Bool, refundingSource source: String? = nil, now: Int64) {
        guard right else { return metrics.wrongGuess() }
        perNode.refund(Self.nodeKey, now: now)
        if let source { perSource.refund(source, now: now) }
    }
}
