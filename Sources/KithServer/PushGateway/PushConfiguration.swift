import KithPushDelivery

/// The push parts of `kith serve`: the providers that deliver knocks, the public base URL of the
/// self-hosted push service, and the bounds.
public struct PushConfiguration: Sendable {
    /// One provider per ``PushTargetKind`` (the first of a kind wins). Devices of a kind without a
    /// provider are accepted, and knocks to them are counted as undeliverable.
    public var providers: [any PushProvider]
    /// Base URL the push service's endpoints are built from, such as `https://push.example.org`
    /// (no trailing slash); nil: `http://<host>:<port>` of the server. Its origin is the VAPID `aud`.
    public var publicURL: String?
    /// Bounds and timings.
    public var limits: PushServerLimits

    /// A configuration with `providers`, `publicURL` and `limits`.
    public init(providers: [any PushProvider] = [], publicURL: String? = nil, limits: PushServerLimits = PushServerLimits()) {
        self.providers = providers
        self.publicURL = publicURL
        self.limits = limits
    }
}
