/// A whitelist token with what a gateway knows about it: whose devices it wakes and until when.
///
/// ChatSecure-Push's `Token` model without the storage: one token per contact so each contact's
/// access is revocable on its own; the owner is the anonymous push account of the device's install.
public struct WhitelistTokenGrant: Sendable, Equatable {
    /// The capability itself.
    public let token: WhitelistToken
    /// The push account whose devices the token wakes (ChatSecure: a UUID string).
    public let owner: String
    /// An optional label the owner gave the token (ChatSecure's `name`, at most 100 characters).
    public let name: String?
    /// When the token was created, in seconds since 1970 UTC.
    public let createdAt: Int64
    /// When the token stops being accepted, in seconds since 1970 UTC.
    public let expiresAt: Int64

    /// Creates a grant.
    public init(token: WhitelistToken, owner: String, name: String? = nil, createdAt: Int64, expiresAt: Int64) {
        self.token = token
        self.owner = owner
        self.name = name
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }

    /// True while the token may knock: its expiry is enforced at knock time (a ChatSecure defect fixed).
    public func isValid(at now: Int64) -> Bool { now < expiresAt }

    /// True when `candidate` is this grant's token (constant-time) and the grant has not expired.
    public func accepts(_ candidate: WhitelistToken, at now: Int64) -> Bool {
        // Both checks always run, so timing does not reveal which one failed.
        let matches = candidate == token
        let valid = isValid(at: now)
        return matches && valid
    }
}
