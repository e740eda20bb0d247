/// Bounds and timings of the push gateway (`/api/v1/`) and the self-hosted push service
/// (`/push/`); the defaults are the documented ones (`docs/PUSH.md`), tests shrink them.
public struct PushServerLimits: Sendable {
    // MARK: Gateway

    /// Largest gateway request body, in bytes (413 beyond).
    public var maximumBodyBytes = 8_192
    /// Accounts the gateway holds; beyond, account creation answers 503 (logins still work).
    public var maximumAccounts = 1_000_000
    /// Live subscriptions the push service holds; beyond, creating one answers 503.
    public var maximumSubscriptions = 1_000_000
    /// Devices one account may register (all kinds together).
    public var devicesPerAccount = 16
    /// Whitelist tokens one account may hold.
    public var tokensPerAccount = 1_000
    /// Tokens one `POST tokens/` may create (`count`).
    public var maximumTokenBatch = 20
    /// Seconds a whitelist token lives after its creation (30 days; enforced at knock time).
    public var tokenLifetimeSeconds = 30 * 86_400
    /// PBKDF2-HMAC-SHA256 rounds for account passwords (tests lower it; production keeps ≥ 210,000).
    public var passwordRounds = 210_000
    /// Password hashes running or waiting at once (creations and logins); beyond, 429 with Retry-After 1.
    /// They run on NIO's blocking thread pool, never on the server's event loops or task executor.
    public var concurrentPasswordHashes = 16
    /// Logins to one username, whatever the source: 10 at once, then 1 a minute (the username is an
    /// install's random name; this stops a distributed guess at its password).
    public var loginsPerUsername = RateLimitRule(burst: 10, perSecond: 1.0 / 60)
    /// Gateway requests per source address (IPv6 by /64).
    public var gatewayRequestsPerSource = RateLimitRule(burst: 120, perSecond: 20)
    /// Account creations and logins (each hashes a password) per source: 10 at once, then 1 a minute.
    public var accountsPerSource = RateLimitRule(burst: 10, perSecond: 1.0 / 60)
    /// Knocks per source address: 60 at once, then 10 a second.
    public var knocksPerSource = RateLimitRule(burst: 60, perSecond: 10)
    /// Knocks per whitelist token: 10 at once, then 10 a minute.
    public var knocksPerToken = RateLimitRule(burst: 10, perSecond: 1.0 / 6)

    // MARK: Delivery

    /// Notifications waiting for a provider; beyond, a knock's notifications are counted and dropped.
    public var dispatchQueueCapacity = 10_000
    /// Delivery attempts per notification (the first included).
    public var maximumDeliveryAttempts = 5
    /// Backoff before the first retry; doubled per attempt, with jitter (50–100 %).
    public var retryBaseDelay: Duration = .seconds(1)
    /// Longest backoff between two attempts.
    public var retryMaximumDelay: Duration = .seconds(60)
    /// TTL given to providers for a knock, in seconds.
    public var knockTimeToLiveSeconds = 86_400

    // MARK: Push service

    /// Largest push message body, in bytes (RFC 8030 §7.2: at least 4096 must pass).
    public var maximumPushMessageBytes = 4_096
    /// Messages stored per subscription; the oldest is dropped to make room for a new one.
    public var messagesPerSubscription = 100
    /// Longest TTL kept, in seconds (a larger TTL is shortened and the kept one echoed).
    public var maximumTimeToLiveSeconds = 28 * 86_400
    /// Subscriptions created per source address: 20 at once, then 1 a minute.
    public var subscriptionsPerSource = RateLimitRule(burst: 20, perSecond: 1.0 / 60)
    /// Push messages per subscription (RFC 8030 §8.4): 60 at once, then 10 a second.
    public var messagesPerCapability = RateLimitRule(burst: 60, perSecond: 10)
    /// Push-service requests per source address.
    public var pushRequestsPerSource = RateLimitRule(burst: 600, perSecond: 100)
    /// Subscriber WebSocket connections one node holds.
    public var maximumSubscribers = 20_000
    /// Subscriber WebSockets one subscription may hold open on a node (a device reconnecting overlaps briefly).
    public var subscribersPerSubscription = 4
    /// Subscriber WebSockets one source address (an IPv6 /64) may hold open on a node.
    public var subscribersPerSource = 64
    /// Messages queued for one subscriber connection; a connection further behind is closed (1008).
    public var subscriberOutboxCapacity = 256
    /// Seconds a deleted subscription answers 410 before it is forgotten (404 after).
    public var tombstoneLifetimeSeconds = 30 * 86_400
    /// With a store shared by several nodes: how often a subscriber connection polls the store for
    /// messages stored through another node (nil: never; the SQLite store has one node).
    public var subscriberPollInterval: Duration? = nil

    /// The documented defaults.
    public init() {}
}
