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
    /// Checks a Web Push endpoint when a device registers (give it the Web Push provider's policy):
    /// an endpoint the provider would refuse (a private address, a malformed URL) is a 400 at once
    /// instead of a refused delivery on every knock. Nil: only the URL's shape is checked.
    public var webPushEndpointPolicy: WebPushEndpointPolicy?

    /// A configuration with `providers`, `publicURL`, `limits` and the registration check of Web Push endpoints.
    public init(
        providers: [any PushProvider] = [], publicURL: String? = nil, limits: PushServerLimits = PushServerLimits(),
        webPushEndpointPolicy: WebPushEndpointPolicy? = nil
    ) {
        self.providers = providers
        self.publicURL = publicURL
        self.limits = limits
        self.webPushEndpointPolicy = webPushEndpointPolicy
    }
}
