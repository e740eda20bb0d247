import KithPush

/// The gateway's answer to creating or logging in to an account.
public struct GatewayAccount: Sendable, Equatable, CustomStringConvertible {
    /// The username.
    public let username: String
    /// The account id (a UUID string).
    public let id: String
    /// The auth token for `Authorization: Token …` (a secret).
    public let authToken: String
    /// True when the account was created (201), false for a login to an existing one (200).
    public let created: Bool

    /// Redacted: never prints the auth token.
    public var description: String { "GatewayAccount(\(username), id: \(id), created: \(created))" }
}

/// A device registered at the gateway.
public struct GatewayDevice: Sendable, Equatable {
    /// The device id (a UUID string).
    public let id: String
    /// True when the gateway delivers to it.
    public let active: Bool
}

/// A whitelist token the gateway issued, with its expiry.
public struct IssuedPushToken: Sendable, Equatable {
    /// The token.
    public let token: WhitelistToken
    /// When it stops being accepted (seconds since 1970 UTC), nil when the gateway did not say.
    public let expiresAt: Int64?
}

/// A knock's urgency at the gateway.
public enum KnockPriority: String, Sendable {
    /// Deliver now (wakes the device).
    case high
    /// Deliver when convenient.
    case low
}
