import KithFeed
import KithIdentity

/// How many push whitelist tokens each contact holds (docs/PUSH-CLIENT.md, "Token hygiene").
public enum PushTokenPolicy {
    /// A contact holding fewer unused tokens than this gets a refill.
    public static let lowWater = 5
    /// A refill tops the contact up to this many unused tokens.
    public static let refillTarget = 10

    /// The gateway API base a hand-off names: `<gateway>/api/v1/` (ChatSecure's `endpoint`).
    public static func apiBase(gatewayURL: String) -> String {
        var base = gatewayURL
        while base.hasSuffix("/") { base.removeLast() }
        if base.hasSuffix("/api/v1") { return base + "/" }
        return base + "/api/v1/"
    }
}

/// One contact short of push tokens: issue `count` fresh ones for them alone and hand them over.
public struct PushTokenRefill: Sendable, Equatable {
    /// The contact.
    public let contact: FeedID
    /// How the contact is shown (untrusted: render sanitized).
    public let name: String
    /// How many tokens to issue.
    public let count: Int
}
