import KithPush

/// VAPID authorizations cached per push service origin (the `aud`), reused until shortly before they expire.
///
/// Signing costs an ECDSA operation per origin per token lifetime instead of one per push.
actor VAPIDTokenCache {
    /// Origins cached at most; when full, expired entries are dropped, then the entry closest to expiry.
    static let maxOrigins = 4_096

    private struct Entry {
        let authorization: VAPIDAuthorization
        let expiration: Int64
    }

    private let signer: VAPIDSigner
    private let subject: String?
    private let lifetime: Int64
    private let refreshMargin: Int64
    private var entries: [String: Entry] = [:]

    init(signer: VAPIDSigner, subject: String?, lifetime: Int64, refreshMargin: Int64) {
        self.signer = signer
        self.subject = subject
        self.lifetime = lifetime
        self.refreshMargin = refreshMargin
    }

    /// The authorization for `origin` at `now`: the cached one while more than the refresh margin remains, else a new one.
    func authorization(origin: String, now: Int64) throws(VAPIDError) -> VAPIDAuthorization {
        if let entry = entries[origin], entry.expiration - now > refreshMargin {
            return entry.authorization
        }
        let expiration = now + lifetime
        let claims = try VAPIDClaims(audience: origin, expiration: expiration, subject: subject)
        let authorization = try signer.authorization(for: claims, now: now)
        if entries[origin] == nil, entries.count >= Self.maxOrigins { evict(now: now) }
        entries[origin] = Entry(authorization: authorization, expiration: expiration)
        return authorization
    }

    /// The number of cached origins (for tests).
    var count: Int { entries.count }

    private func evict(now: Int64) {
        entries = entries.filter { $0.value.expiration - now > refreshMargin }
        if entries.count >= Self.maxOrigins, let oldest = entries.min(by: { $0.value.expiration < $1.value.expiration }) {
            entries[oldest.key] = nil
        }
    }
}
