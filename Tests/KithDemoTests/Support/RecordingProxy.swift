import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A loopback TCP proxy that forwards every connection to a target port and records every byte it carries, both
/// ways: what a server sees of its clients (and what it answers), for tests that check what crosses the wire.
/// A client's WebSocket frames are masked (RFC 6455 section 5.3), so ``take()`` also gives their unmasked payloads.
final class RecordingProxy: Sendable {
    typealias Connection = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    struct Failure: Error { let reason: String }

    /// The proxy's port on 127.0.0.1.
    let port: Int
    private let listener: Task<Void, Never>
    private let streams = Mutex<[Int: [UInt8]]>([:])
    private let counter = Mutex(0)

    private init(port: Int, listener: Task<Void, Never>) {
        self.port = port
        self.listener = listener
    }

    /// The proxy's base URL (`http://127.0.0.1:PORT`).
    var url: String { "http://127.0.0.1:\(port)" }

    /// Every byte stream carried since the last ``take()`` (each connection's two directions apart), plus the
    /// unmasked payloads of every client-to-server WebSocket stream.
    func take() -> [[UInt8]] {
        let taken = streams.withLock { recorded in
            defer { recorded = [:] }
            return recorded
        }
        var out: [[UInt8]] = []
        for (key, stream) in taken.sorted(by: { $0.key < $1.key }) {
            out.append(stream)
            if key % 2 == 0, let payloads = Self.unmaskedWebSocketPayloads(stream) { out.append(payloads) }
        }
        return out
    }

    /// The payloads of a client stream that upgraded to a WebSocket, unmasked; nil when it did not upgrade.
    static func unmaskedWebSocketPayloads(_ stream: [UInt8]) -> [UInt8]? {
        let head = String(decoding: stream.prefix(4096), as: UTF8.self).lowercased()
        guard head.contains("upgrade: websocket"), let end = head.range(of: "\r\n\r\n") else { return nil }
        var index = head.utf8.distance(from: head.utf8.startIndex, to: end.upperBound)
        var payloads: [UInt8] = []
        while index + 2 <= stream.count {
            let masked = stream[index + 1] & 0x80 != 0
            var length = Int(stream[index + 1] & 0x7F)
            index += 2
            if length == 126, index + 2 <= stream.count {
                length = Int(stream[index]) << 8 | Int(stream[index + 1])
                index += 2
            } else if length == 127, index + 8 <= stream.count {
                length = stream[index..<(index + 8)].reduce(0) { $0 << 8 | Int($1) }
                index += 8
            }
            var mask: [UInt8] = [0, 0, 0, 0]
            if masked, index + 4 <= stream.count {
                mask = Array(stream[index..<(index + 4)])
                index += 4
            }
            let available = min(length, stream.count - index)
            guard available >= 0 else { break }
            for offset in 0..<available { payloads.append(stream[index + offset] ^ mask[offset % 4]) }
            index += length
        }
        return payloads
    }

    /// Listens on an ephemeral loopback port and forwards every connection to 127.0.0.1:`targetPort`.
    static func start(to targetPort: Int) async throws -> RecordingProxy {
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture { try Connection(wrappingChannelSynchronously: channel) }
            }
        guard let port = server.channel.localAddress?.port else { throw Failure(reason: "no local port") }
        let proxy = Mutex<RecordingProxy?>(nil)
        let listener = Task<Void, Never> {
            _ = try? await server.executeThenClose { inbound in
                for try await client in inbound {
                    guard let proxy = proxy.withLock({ $0 }) else { continue }
                    Task { await proxy.carry(client, to: targetPort) }
                }
            }
        }
        let made = RecordingProxy(port: port, listener: listener)
        proxy.withLock { $0 = made }
        return made
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
        try? await client.executeThenClose { clientIn, clientOut in
            try await upstream.executeThenClose { upstreamIn, upstreamOut in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { try? await self.forward(clientIn, to: upstreamOut, key: id * 2) }
                    group.addTask { try? await self.forward(upstreamIn, to: clientOut, key: id * 2 + 1) }
                    await group.next()
                    client.channel.close(promise: nil)
                    upstream.channel.close(promise: nil)
                    group.cancelAll()
                }
            }
        }
    }

    private func forward(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, key: Int) async throws {
        for try await buffer in inbound {
            streams.withLock { $0[key, default: []].append(contentsOf: buffer.readableBytesView) }
            try await outbound.write(buffer)
        }
    }
}
