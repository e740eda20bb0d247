import HummingbirdWSClient
import KithRendezvous
import Logging
import NIOCore
import Synchronization

/// A raw WebSocket client for relay tests: sends text and binary, collects both in order.
final class RelayTestPeer: Sendable {
    enum Received: Equatable, Sendable {
        case message(ServerMessage)
        case binary([UInt8])
        case undecodable(String)
    }

    private let inbox = Mutex<[Received]>([])
    private let writer = Mutex<WebSocketOutboundWriter?>(nil)
    private let ended = Mutex<WebSocketCloseFrame??>(nil)
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Connects and waits for `connected`; answers the client id.
    static func connect(_ url: String) async throws -> (RelayTestPeer, ClientID) {
        let peer = RelayTestPeer()
        let running = Task {
            let close = try? await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 20), logger: Logger(label: "test")) { inbound, outbound, _ in
                peer.writer.withLock { $0 = outbound }
                for try await message in inbound.messages(maxSize: 1 << 20) {
                    let received: Received = switch message {
                    case .binary(let buffer): .binary(Array(buffer.readableBytesView))
                    case .text(let text): (try? ServerMessage(bytes: Array(text.utf8))).map(Received.message) ?? .undecodable(text)
                    }
                    peer.inbox.withLock { $0.append(received) }
                }
            }
            peer.ended.withLock { $0 = .some(close) }
        }
        peer.task.withLock { $0 = running }
        guard case .message(.connected(let client, _)) = try await peer.next() else { throw TestPeer.Timeout(waitingFor: "connected") }
        return (peer, client)
    }

    /// The next thing received, waiting up to `seconds`.
    func next(seconds: Double = 60) async throws -> Received {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if let item = inbox.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return item }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestPeer.Timeout(waitingFor: "a message")
    }

    /// Asserts nothing arrives for `seconds`; answers the first thing that did.
    func nothing(seconds: Double = 0.3) async throws -> Received? {
        try await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
        return inbox.withLock { $0.first }
    }

    func send(_ message: ClientMessage) async throws {
        guard let writer = writer.withLock({ $0 }) else { throw TestPeer.Timeout(waitingFor: "the writer") }
        try await writer.write(.text(message.text))
    }

    func sendBinary(_ bytes: [UInt8]) async throws {
        guard let writer = writer.withLock({ $0 }) else { throw TestPeer.Timeout(waitingFor: "the writer") }
        try await writer.write(.binary(ByteBuffer(bytes: bytes)))
    }

    /// Waits for the connection to end; answers the server's close code.
    func closeCode(seconds: Double = 60) async throws -> Int? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if let close = ended.withLock({ $0 }) { return close.map { Int(UInt16(webSocketErrorCode: $0.closeCode)) } }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestPeer.Timeout(waitingFor: "the close")
    }

    /// Closes from this side.
    func close() async {
        if let writer = writer.withLock({ $0 }) { try? await writer.close(.normalClosure, reason: nil) }
        _ = try? await closeCode()
    }
}
