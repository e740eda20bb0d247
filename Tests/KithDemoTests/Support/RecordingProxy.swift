import Foundation
import KithTestSupport
import NIOCore
import Synchronization

/// A loopback TCP proxy that forwards every connection to a target port and records every byte it carries, both
/// ways: what a server sees of its clients (and what it answers), for tests that check what crosses the wire.
/// A client's WebSocket frames are masked (RFC 6455 section 5.3), so ``take()`` also gives their unmasked payloads.
final class RecordingProxy: Sendable {
    /// The streams recorded, keyed by connection number times 2, plus 1 for the target's answers.
    private final class Streams: Sendable { let bytes = Mutex<[Int: [UInt8]]>([:]) }

    private let proxy: LoopbackProxy
    private let recorded: Streams

    private init(proxy: LoopbackProxy, recorded: Streams) {
        self.proxy = proxy
        self.recorded = recorded
    }

    /// The proxy's base URL (`http://127.0.0.1:PORT`).
    var url: String { "http://127.0.0.1:\(proxy.port)" }

    /// Every byte stream carried since the last ``take()`` (each connection's two directions apart), plus the
    /// unmasked payloads of every client-to-server WebSocket stream.
    func take() -> [[UInt8]] {
        let taken = recorded.bytes.withLock { recorded in
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
        let recorded = Streams()
        let proxy = try await LoopbackProxy.start(to: targetPort) { id, toTarget, buffer in
            recorded.bytes.withLock { $0[id * 2 + (toTarget ? 0 : 1), default: []].append(contentsOf: buffer.readableBytesView) }
            return true
        }
        return RecordingProxy(proxy: proxy, recorded: recorded)
    }

    /// Stops listening.
    func stop() { proxy.stop() }
}
