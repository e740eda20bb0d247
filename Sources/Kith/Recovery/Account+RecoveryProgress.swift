import KithContinuity

/// How far a new device's collection of releases has come (`Account.Recovery.progress(of:)`).
public struct RecoveryProgress: Sendable, Equatable {
    /// The releases that opened to distinct shares of one set.
    public let collected: Int
    /// How many more are needed (0 when the identity can be rebuilt; 2 until the first share tells the threshold).
    public let missing: Int
}

extension Account.Recovery {
    /// Opens `releases` with the pending request's key as `rebuild(from:)` would, without combining or forgetting
    /// the request: a new device collecting releases one at a time (through a join-code relay) checks each new one
    /// with the ones kept so far and refuses it when this throws.
    ///
    /// - Throws: `KithError.input` when no request is pending; `KithError.recovery` for a release of another
    ///   request, one that does not open, a replayed release, a second share of one guardian or another set.
    public func progress(of releases: [RecoveryRelease]) async throws(KithError) -> RecoveryProgress {
        try await BlockingWork.run { () throws(KithError) in
            let collector = try account.collectRecoveryReleasesBlocking(releases)
            return RecoveryProgress(collected: collector.shares.count, missing: collector.missing)
        }
    }
}

extension Account {
    /// Opens `releases` with the pending request's key into a collector (shared by `progress(of:)` and `rebuild(from:)`).
    func collectRecoveryReleasesBlocking(_ releases: [RecoveryRelease]) throws(KithError) -> RecoveryCollector {
        guard let key = try pendingRecoveryRequestKeyBlocking() else {
            throw .input(.invalid("no recovery request is pending: run `kith recovery request FEED_ID` first"))
        }
        var collector = RecoveryCollector(requestKey: key)
        for release in releases {
            do throws(RecoveryError) { try collector.add(release) } catch { throw .recovery(error) }
        }
        return collector
    }
}
