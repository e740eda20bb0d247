import AsyncHTTPClient
import NIOConcurrencyHelpers

/// Gives HTTP clients that connect to one checked address for a host name, so that a Web Push delivery goes to the
/// address the SSRF policy approved, never to what a second DNS lookup answers (DNS rebinding: a name that resolves
/// to a public address for the check and to a private one for the connection).
public protocol PinnedClientSource: Sendable {
    /// A client whose connections to `host` go to `address` (an IPv4 or IPv6 literal); TLS still verifies `host`.
    /// Nil once the source is shut down.
    func client(host: String, address: String) -> HTTPClient?
}

/// The pinned clients of one server: an `HTTPClient` per (host, address), made with AsyncHTTPClient's `dnsOverride`
/// on the shared client settings (``PushHTTPSettings/makeConfiguration(tlsConfiguration:connectTimeout:)``), at most
/// ``maximumClients`` kept (the least recently used one is shut down). Call ``shutdown()`` when the server stops.
public final class PinnedHTTPClients: PinnedClientSource {
    /// Clients kept at once (push services answer from a few addresses each).
    public let maximumClients: Int
    private let configuration: HTTPClient.Configuration
    private let state = NIOLockedValueBox<State>(State())

    /// A host and the address its connections are pinned to.
    private struct Pin: Hashable {
        let host: String
        let address: String
    }

    private struct State {
        var clients: [Pin: HTTPClient] = [:]
        var order: [Pin] = []
        var closed = false
    }

    /// Pinned clients with `configuration` (its `dnsOverride` is replaced per client).
    public init(configuration: HTTPClient.Configuration = PushHTTPSettings.makeConfiguration(), maximumClients: Int = 16) {
        self.configuration = configuration
        self.maximumClients = max(1, maximumClients)
    }

    public func client(host: String, address: String) -> HTTPClient? {
        let key = Pin(host: host, address: address)
        var evicted: HTTPClient?
        let client = state.withLockedValue { state -> HTTPClient? in
            guard !state.closed else { return nil }
            if let client = state.clients[key] {
                state.order.removeAll { $0 == key }
                state.order.append(key)
                return client
            }
            var pinned = configuration
            pinned.dnsOverride = [host: address]
            let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: pinned)
            state.clients[key] = client
            state.order.append(key)
            if state.order.count > maximumClients {
                let oldest = state.order.removeFirst()
                evicted = state.clients.removeValue(forKey: oldest)
            }
            return client
        }
        if let evicted { Task { try? await evicted.shutdown() } }
        return client
    }

    /// The (host, address) pairs with a client now, least recently used first.
    public var pins: [(host: String, address: String)] {
        state.withLockedValue { state in state.order.map { ($0.host, $0.address) } }
    }

    /// Shuts every client down.
    public func shutdown() async {
        let clients = state.withLockedValue { state -> [HTTPClient] in
            state.closed = true
            defer { state.clients = [:]; state.order = [] }
            return Array(state.clients.values)
        }
        for client in clients { try? await client.shutdown() }
    }
}
