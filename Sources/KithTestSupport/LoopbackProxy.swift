import NIOCore
import NIOPosix
import Synchronization

/// A loopback TCP proxy for tests: forwards every connection to 127.0.0.1:`targetPort` and shows every buffer it
/// carries to a hook, which decides whether it is forwarded. Tests build on it to record what crosses the wire or
/// to cut and black-hole connections.
public final class LoopbackProxy: Sendable {
    /// One buffer carried: the connection's number (from 1), whether it goes from the client to the target, its bytes.
    public typealias Hook = @Sendable (_ connection: Int, _ toTarget: Bool, _ bytes: ByteBuffer) -> Bool

    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Why the proxy could not start.
    public struct Failure: Error { public let reason: String }

    /// The proxy's port on 127.0.0.1.
    public let port: Int
    private let listener: Task<Void, Never>
    private let live = Mutex<[Int: (client: any Channel, upstream: any Channel)]>([:])
    private let counter = Mutex(0)
    private let hook: Hook

    private init(port: Int, listener: Task<Void, Never>, hook: @escaping Hook) {
        self.port = port
        self.listener = listener
        self.hook = hook
    }

    /// Connections accepted so far.
    public var accepted: Int { counter.withLock { $0 } }

    /// The numbers of the connections carried now.
    public var liveConnections: Set<Int> { live.withLock { Set($0.keys) } }

    /// Listens on an ephemeral loopback port and forwards every connection to 127.0.0.1:`targetPort`, each buffer
    /// through `hook` (forwarded when it returns true).
    public static func start(to targetPort: Int, hook: @escaping Hook = { _, _, _ in true }) async throws -> LoopbackProxy {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        guard let port = server.channel.localAddress?.port else { throw Failure(reason: "no local port") }
        let proxy = Mutex<LoopbackProxy?>(nil)
        let listener = Task<Void, Never> {
            _ = try? await server.executeThenClose { inbound in
                for try await client in inbound {
                    guard let proxy = proxy.withLock({ $0 }) else { continue }
                    Task { await proxy.carry(client, to: targetPort) }
                }
            }
        }
        let made = LoopbackProxy(port: port, listener: listener, hook: hook)
        proxy.withLock { $0 = made }
        return made
    }

    /// Closes every connection carried now.
    public func cut() {
        let channels = live.withLock { current in
            defer { current = [:] }
            return Array(current.values)
        }
        for pair in channels {
            pair.client.close(promise: nil)
            pair.upstream.close(promise: nil)
        }
    }

    /// Stops listening.
    public func stop() { listener.cancel() }

    private func carry(_ client: Connection, to targetPort: Int) async {
        let id = counter.withLock { count in
            count += 1
            return count
        }
        guard let upstream = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: targetPort, channelInitializer: { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            })
        else {
            client.channel.close(promise: nil)
            return
        }
        live.withLock { $0[id] = (client.channel, upstream.channel) }
        try? await client.executeThenClose { clientIn, clientOut in
            try await upstream.executeThenClose { upstreamIn, upstreamOut in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await self.forward(clientIn, to: upstreamOut, id: id, toTarget: true) }
                    group.addTask { try? await self.forward(upstreamIn, to: clientOut, id: id, toTarget: false) }
                    await group.next()
                    client.channel.close(promise: nil)
                    upstream.channel.close(promise: nil)
                    group.cancelAll()
                }
            }
        }
        live.withLock { $0[id] = nil }
    }

    private func forward(
        _ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, id: Int, toTarget: Bool
    ) async throws {
        for try await buffer in inbound where hook(id, toTarget, buffer) {
            try await outbound.write(buffer)
        }
    }
}
