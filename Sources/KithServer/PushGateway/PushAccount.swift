/// An account of the push gateway (ChatSecure's anonymous one per install).
public struct PushAccount: Sendable, Hashable {
    /// The account id (a lowercase UUID).
    public var id: String
    /// 1...30 characters, unique.
    public var username: String
    /// Optional contact address, never verified.
    public var email: String?
    /// The password's PBKDF2 record (``PasswordHasher``); never the password.
    public var passwordRecord: String
    /// SHA-256 of the current API token (the token itself is never stored).
    public var authDigest: [UInt8]
    /// Creation time, milliseconds since the epoch.
    public var createdAt: Int64

    /// An account with every field.
    public init(id: String, username: String, email: String?, passwordRecord: String, authDigest: [UInt8], createdAt: Int64) {
        self.id = id
        self.username = username
        self.email = email
        self.passwordRecord = passwordRecord
        self.authDigest = authDigest
        self.createdAt = createdAt
    }
}
