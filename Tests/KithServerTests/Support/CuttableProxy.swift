import NIOCore
import NIOPosix
import Synchronization

/// A loopback TCP proxy a test can cut (close every connection it carries) or black-hole (keep them open and
/// silently drop their bytes both ways, like a dead network path); connections made afterwards work normally.
final class CuttableProxy: Sendable {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    struct Failure: Error { let reason: String }

    /// The proxy's port on 127.0.0.1.
    let port: Int
    private let listener: Task<Void, Never>
    private let live = Mutex<[Int: (client: any Channel, upstream: any Channel)]>([:])
    private let blackHoled = Mutex<Set<Int>>([])
    private let counter = Mutex(0)

    private init(port: Int, listener: Task<Void, Never>) {
        self.port = port
        self.listener = listener
    }

    /// Connections accepted so far.
    var accepted: Int { counter.withLock { $0 } }

    /// Listens on an ephemeral loopback port and forwards every connection to 127.0.0.1:`targetPort`.
    static func start(to targetPort: Int) async throws -> CuttableProxy {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        guard let port = server.channel.localAddress?.port else { throw Failure(reason: "no local port") }
        let proxy = Mutex<CuttableProxy?>(nil)
        let listener = Task<Void, Never> {
            _ = try? await server.executeThenClose { inbound in
                for try await client in inbound {
                    guard let proxy = proxy.withLock({ $0 }) else { continue }
                    Task { await proxy.carry(client, to: targetPort) }
                }
            }
        }
        let made = CuttableProxy(port: port, listener: listener)
        proxy.withLock { $0 = made }
        return made
    }

    /// Closes every connection carried now.
    func cut() {
        let channels = live.withLock { current in
            defer { current = [:] }
            return Array(current.values)
        }
        for pair in channels {
            pair.client.close(promise: nil)
            pair.upstream.close(promise: nil)
        }
    }

    /// Drops, from now on, every byte of the connections carried now (both ways), leaving them open.
    func blackHole() {
        let ids = live.withLock { Set($0.keys) }
        blackHoled.withLock { $0.formUnion(ids) }
    }

    /// Stops listening.
    func stop() { listener.cancel() }

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
                    group.addTask { try? await self.forward(clientIn, to: upstreamOut, id: id) }
                    group.addTask { try? await self.forward(upstreamIn, to: clientOut, id: id) }
                    await group.next()
                    client.channel.close(promise: nil)
                    upstream.channel.close(promise: nil)
                    group.cancelAll()
                }
            }
        }
        live.withLock { $0[id] = nil }
    }

    private func forward(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, id: Int) async throws {
        for try await buffer in inbound where !blackHoled.withLock({ $0.contains(id) }) {
            try await outbound.write(buffer)
        }
    }
}
