import KithContinuity
import KithIdentity
import KithStore

/// The new device's side of recovery through contacts: one pending request at a time, its key sealed in the store.
extension Account.Recovery {
    /// Makes a recovery request for the lost feed `owner` (replacing any pending one) and keeps its private key,
    /// sealed, until the identity is rebuilt. Show `request.text` and `request.safetyCode` to each guardian.
    public func makeRequest(for owner: FeedID) async throws(KithError) -> RecoveryRequest {
        try await BlockingWork.run { () throws(KithError) in
            let key: RecoveryRequestKey
            do throws(RecoveryError) { key = try RecoveryRequestKey.make(ownerFeedID: owner.rawBytes) } catch { throw .recovery(error) }
            do throws(StoreError) {
                try account.store.savePendingRecoveryRequest(key.secretBytes, createdAt: account.clock())
            } catch {
                throw .store(error)
            }
            return key.request
        }
    }

    /// The pending recovery request, nil when there is none.
    public func pendingRequest() async throws(KithError) -> RecoveryRequest? {
        try await BlockingWork.run { () throws(KithError) in try account.pendingRecoveryRequestKeyBlocking()?.request }
    }

    /// Opens guardians' releases with the pending request's key and rebuilds the lost identity; on success the
    /// request is forgotten, so its releases cannot be used again.
    ///
    /// - Throws: `KithError.input` when no request is pending; `KithError.recovery` for a release of another
    ///   request, a tampered or replayed release, too few shares, mixed sets or a forged share.
    public func rebuild(from releases: [RecoveryRelease]) async throws(KithError) -> RecoveredIdentity {
        try await BlockingWork.run { () throws(KithError) in
            let collector = try account.collectRecoveryReleasesBlocking(releases)
            let recovered = try Account.Recovery.rebuild(from: collector)
            do throws(StoreError) { try account.store.deletePendingRecoveryRequest() } catch { throw .store(error) }
            return recovered
        }
    }
}

extension Account {
    func pendingRecoveryRequestKeyBlocking() throws(KithError) -> RecoveryRequestKey? {
        let bytes: [UInt8]?
        do throws(StoreError) { bytes = try store.pendingRecoveryRequest() } catch { throw .store(error) }
        guard let bytes else { return nil }
        do throws(RecoveryError) { return try RecoveryRequestKey(secretBytes: bytes) } catch { throw .recovery(error) }
    }
}
