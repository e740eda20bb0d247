import Hummingbird
import HummingbirdWebSocket
import KithRendezvous
import NIOCore

/// The request context of the rendezvous server's HTTP and WebSocket routes: Hummingbird's core
/// storage plus the key that rate limits count by.
public struct RendezvousRequestContext: RequestContext, WebSocketRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The WebSocket upgrade slot.
    public let webSocket: WebSocketHandlerReference<Self>
    /// The source this request counts against: the peer's IPv4 address (also when it arrives
    /// IPv4-mapped, `::ffff:a.b.c.d`, on a dual-stack listener), or its IPv6 /64 prefix (one
    /// subscriber usually holds a whole /64); `unknown` without a socket address.
    public let sourceKey: String

    /// Creates the context of one request.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        webSocket = WebSocketHandlerReference()
        sourceKey = Self.sourceKey(of: source.channel.remoteAddress)
    }

    static func sourceKey(of address: SocketAddress?) -> String {
        switch address {
        case .v4(let ipv4)?:
            return "v4:" + (SocketAddress.v4(ipv4).ipAddress ?? "unknown")
        case .v6(let ipv6)?:
            let bytes = withUnsafeBytes(of: ipv6.address.sin6_addr) { Array($0) }
            // `::ffff:a.b.c.d` is an IPv4 client of a dual-stack socket (`--host ::`): keyed like a
            // native IPv4 peer, not by the /64 every IPv4 client shares.
            if bytes.count == 16, bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
                return "v4:" + bytes.suffix(4).map { String($0) }.joined(separator: ".")
            }
            return "v6:" + bytes.prefix(8).map { String($0, radix: 16) }.joined(separator: ".")
        default:
            return "unknown"
        }
    }
}
