/// Why a Web Push endpoint URL is refused before any request is made.
public enum WebPushEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is longer than ``WebPushEndpointPolicy/maxEndpointBytes`` bytes.
    case tooLong(Int)
    /// The scheme is not `http` or `https`.
    case unsupportedScheme(String)
    /// The URL is not `scheme://host[:port]/path` with a plain host (no user info, no spaces, no control characters).
    case malformed(String)
    /// The host is a private, loopback, link-local, multicast or reserved address or an internal name,
    /// and the policy does not allow those (server-side request forgery guard).
    case privateAddress(String)

    /// A stable reason code.
    public var code: String {
        switch self {
        case .tooLong: "endpoint_too_long"
        case .unsupportedScheme: "unsupported_scheme"
        case .malformed: "malformed_endpoint"
        case .privateAddress: "private_address"
        }
    }

    /// An actionable message (never the full URL, whose path is a capability).
    public var description: String {
        switch self {
        case .tooLong(let size): "endpoint is \(size) bytes; at most \(WebPushEndpointPolicy.maxEndpointBytes) are accepted"
        case .unsupportedScheme(let scheme): "endpoint scheme \(scheme.prefix(16)) is not http or https"
        case .malformed(let why): "endpoint is not a plain http(s) URL: \(why)"
        case .privateAddress(let host):
            "endpoint host \(host.prefix(64)) is private, loopback, link-local or internal; allow private addresses in the Web Push configuration only for loopback tests or a trusted network"
        }
    }
}
