import NIOCore
import NIOPosix

/// Accepts TCP sync connections (SwiftNIO); binds 127.0.0.1 unless told otherwise.
///
/// Incoming connections appear on ``connections`` as ``TCPTransport``s; at most
/// ``SyncLimits/tcpPendingConnections`` wait to be taken, further ones are closed at once.
public final class TCPSyncListener: Sendable {
    /// The port actually bound (useful with port 0).
    public let port: Int
    /// The connections accepted, in order.
    public let connections: AsyncStream<TCPTransport>
    private let channel: any Channel
    private let continuation: AsyncStream<TCPTransport>.Continuation

    private init(channel: any Channel, port: Int, connections: AsyncStream<TCPTransport>, continuation: AsyncStream<TCPTransport>.Continuation) {
        self.channel = channel
        self.port = port
        self.connections = connections
        self.continuation = continuation
    }

    /// Binds a listener.
    /// - Parameters:
    ///   - host: the address to bind; 127.0.0.1 by default (pass "0.0.0.0" to accept LAN peers).
    ///   - port: the TCP port; 0 picks a free one (see ``port``).
    ///   - mtu: the link frame size both ends use.
    ///   - idleTimeout: seconds an accepted connection may go without receiving a byte before
    ///     it is closed (see ``TCPTransport/connect(host:port:mtu:idleTimeout:)``).
    /// - Throws: ``SyncTransportError/connectionFailed(_:)`` when the address cannot be bound.
    public static func bind(
        host: String = "127.0.0.1", port: Int = 0, mtu: Int = SyncLimits.maximumMTU, idleTimeout: Double = SyncLimits.tcpIdleTimeoutSeconds
    ) async throws(SyncTransportError) -> TCPSyncListener {
        try TCPTransport.validate(mtu: mtu)
        let (stream, continuation) = AsyncStream<TCPTransport>.makeStream(
            bufferingPolicy: .bufferingOldest(SyncLimits.tcpPendingConnections)
        )
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let inbox = TCPFrameInbox()
                    try TCPTransport.addHandlers(to: channel, inbox: inbox, mtu: mtu, idleTimeout: idleTimeout)
                    let transport = TCPTransport(channel: channel, inbox: inbox, mtu: mtu)
                    // Too many waiting, or the listener was closed: nobody will ever take it.
                    switch continuation.yield(transport) {
                    case .enqueued: break
                    case .dropped, .terminated: channel.close(promise: nil)
                    @unknown default: channel.close(promise: nil)
                    }
                }
            }
        do {
            let channel = try await bootstrap.bind(host: host, port: port).get()
            let bound = channel.localAddress?.port ?? port
            return TCPSyncListener(channel: channel, port: bound, connections: stream, continuation: continuation)
        } catch {
            continuation.finish()
            throw .connectionFailed("cannot listen on \(host):\(port): \(error)")
        }
    }

    /// Stops accepting; connections already accepted stay open.
    public func close() async {
        continuation.finish()
        try? await channel.close().get()
    }
}
