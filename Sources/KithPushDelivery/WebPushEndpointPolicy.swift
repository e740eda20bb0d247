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
/// DNS names are also resolved before each request (``WebPushProviderConfiguration/hostResolver``) and
/// refused when any address is non-public; with pinned clients (``PinnedHTTPClients``, as `kith serve` runs)
/// the request then connects to the first checked address, so a name that changes its answer in between
/// (DNS rebinding) cannot send it elsewhere.
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

    /// Applies the policy to the addresses a DNS name resolved to: all must be public.
    ///
    /// - Throws: ``WebPushEndpointError/privateAddress(_:)`` naming the host when one is not.
    public func check(resolvedAddresses addresses: [[UInt8]], of host: String) throws(WebPushEndpointError) {
        guard !allowPrivateAddresses else { return }
        for address in addresses {
            let nonPublic = switch address.count {
            case 4: IPAddressClassifier.isNonPublicIPv4(address)
            case 16: IPAddressClassifier.isNonPublicIPv6(address)
            default: true
            }
            if nonPublic { throw .privateAddress(host) }
        }
    }
}
