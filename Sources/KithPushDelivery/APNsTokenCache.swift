import Crypto
import KithCanonical

/// The APNs provider token (ES256 JWT): minted once, reused for the configured interval, replaced
/// before Apple's one-hour limit, and never more often than every 20 minutes unless Apple rejects it.
actor APNsTokenCache {
    /// A minted token and when it was issued.
    struct Token: Sendable, Equatable {
        let jwt: String
        let issuedAt: Int64
    }

    private let key: P256.Signing.PrivateKey
    private let keyID: String
    private let teamID: String
    private let refreshSeconds: Int64
    private var current: Token?
    private(set) var mintedCount = 0

    init(key: P256.Signing.PrivateKey, keyID: String, teamID: String, refreshSeconds: Int64) {
        self.key = key
        self.keyID = keyID
        self.teamID = teamID
        self.refreshSeconds = refreshSeconds
    }

    /// The token to use at `now`.
    func token(now: Int64) throws -> Token {
        if let current, now - current.issuedAt < refreshSeconds, now >= current.issuedAt { return current }
        let header: JSONObject = ["alg": .string("ES256"), "kid": .string(keyID)]
        let claims: JSONObject = ["iss": .string(teamID), "iat": .integer(now)]
        let token = Token(jwt: try CompactJWT.es256(header: header, claims: claims, key: key), issuedAt: now)
        current = token
        mintedCount += 1
        return token
    }

    /// Called when APNs rejected `token` as expired or invalid. Drops it and returns true (retry with a
    /// new token) when it is at least 20 minutes old or already replaced; returns false when a token
    /// younger than that was rejected: the key, key id or team id is wrong, and minting again would only
    /// earn `429 TooManyProviderTokenUpdates`.
    func reject(_ token: Token, now: Int64) -> Bool {
        guard let current, current == token else { return true }
        guard now - token.issuedAt >= APNsProviderConfiguration.minTokenAgeSeconds else { return false }
        self.current = nil
        return true
    }
}
