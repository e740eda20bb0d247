/// Which Web Push endpoints the provider may POST to: the guard against server-side request forgery.
///
/// Anyone who registers a Web Push device chooses its endpoint URL, so without this policy the
/// gateway could be made to POST into the operator's private network. By default the provider refuses
/// hosts that are IP literals in private, loopback, link-local, shared, multicast or reserved ranges,
/// IPv4-mapped or NAT64 forms of those, numeric host spellings other than a plain dotted quad, and
/// internal names (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`, single-label
/// names). Tests and `kith serve` delivering to its own push service on loopback set
/// ``allowPrivateAddresses``.
///
/// Limit: a public DNS name that resolves to a private address is not detected here; deployments that
/// need that guarantee add an egress firewall.
public struct WebPushEndpointPolicy: Sendable, Hashable {
    /// The longest endpoint URL accepted, in bytes (UnifiedPush: endpoints are at most 1000 bytes).
    public static let maxEndpointBytes = 1000

    /// Whether private, loopback and internal hosts are allowed (default `false`).
    public var allowPrivateAddresses: Bool

    /// Creates a policy.
    public init(allowPrivateAddresses: Bool = false) {
        self.allowPrivateAddresses = allowPrivateAddresses
    }

    /// Parses `url` and applies the policy.
    ///
    /// - Throws: ``WebPushEndpointError``.
    public func check(_ url: String) throws(WebPushEndpointError) -> WebPushEndpoint {
        let endpoint = try WebPushEndpoint(url)
        guard !allowPrivateAddresses else { return endpoint }
        if IPAddressClassifier.isNonPublicHost(endpoint.host) { throw .privateAddress(endpoint.host) }
        return endpoint
    }
}
