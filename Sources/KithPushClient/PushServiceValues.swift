import KithPush

/// A subscription at a push service: where application servers push, and the secret to read it.
public struct PushSubscription: Sendable, Equatable, CustomStringConvertible {
    /// The push resource URL (a capability: give it only to the gateway).
    public let endpoint: String
    /// The subscription secret (reads messages over the WebSocket, deletes the subscription).
    public let secret: String

    /// Creates a subscription value.
    public init(endpoint: String, secret: String) {
        self.endpoint = endpoint
        self.secret = secret
    }

    /// Redacted: prints neither capability.
    public var description: String { "PushSubscription(redacted)" }
}

/// A knock delivered by the push service and decrypted.
public struct IncomingKnock: Sendable, Equatable {
    /// The push service's message id (acknowledged once the handler returns).
    public let messageID: String
    /// The decrypted knock.
    public let body: KnockBody
    /// The push message's urgency, as the service reported it.
    public let urgency: String?
}

/// What the listener does after a knock was handled.
public enum KnockListenDecision: Sendable {
    /// Acknowledge and wait for the next.
    case keepListening
    /// Acknowledge and return.
    case stop
}

/// How the listener reconnects after the connection drops.
public struct ReconnectPolicy: Sendable {
    /// First wait.
    public var initialDelay: Duration
    /// Longest wait (the delay doubles up to this).
    public var maximumDelay: Duration
    /// Failed connection attempts in a row before giving up; nil retries forever.
    public var maximumFailures: Int?

    /// Creates a policy.
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(30), maximumFailures: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumFailures = maximumFailures
    }

    /// Retries forever, 0.5 s to 30 s apart.
    public static let `default` = ReconnectPolicy()
}
