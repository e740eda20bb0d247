import KithRendezvous
import Synchronization

/// A signaling client for tests: connects in the background, collects what the server sends,
/// sends on request and reports how the connection closed.
final class TestPeer: Sendable {
    struct Timeout: Error, CustomStringConvertible {
        let waitingFor: String
        var description: String { "timed out waiting for \(waitingFor)" }
    }

    private let inbox = Mutex<[ServerMessage]>([])
    private let channel = Mutex<SignalingChannel?>(nil)
    private let ended = Mutex<Result<SignalingClose, any Error>?>(nil)
    private let task: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Connects to `url` and waits for `connected`; answers the client id.
    static func connect(_ url: String, pingInterval: Duration = .seconds(25)) async throws -> (TestPeer, ClientID) {
        let peer = TestPeer()
        let running = Task {
            let result: Result<SignalingClose, any Error>
            do {
                result = .success(try await SignalingClient.connect(to: url, pingInterval: pingInterval) { channel in
                    peer.channel.withLock { $0 = channel }
                    for try await message in channel.messages { peer.inbox.withLock { $0.append(message) } }
                })
            } catch {
                result = .failure(error)
            }
            peer.ended.withLock { $0 = result }
        }
        peer.task.withLock { $0 = running }
        guard case .connected(let client, let server) = try await peer.next() else { throw Timeout(waitingFor: "connected") }
        guard server == SignalingText.serverName else { throw Timeout(waitingFor: "Inviso's server name") }
        return (peer, client)
    }

    /// Two peers in `room` as its members `dev-a` (the initiator) and `dev-b`, with `room_joined` and `room_ready`
    /// already read on both sides.
    static func joinedPair(_ room: RoomID, url: String) async throws -> (alice: TestPeer, bob: TestPeer) {
        let (alice, _) = try await connect(url)
        let (bob, _) = try await connect(url)
        try await alice.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-a")))
        _ = try await alice.next()
        try await bob.send(.joinRoom(roomID: room, deviceID: DeviceID("dev-b")))
        _ = try await bob.next()
        _ = try await bob.next()
        _ = try await alice.next()
        return (alice, bob)
    }

    /// The next message, waiting up to `seconds`.
    func next(seconds: Double = 60) async throws -> ServerMessage {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if let message = inbox.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return message }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout(waitingFor: "a message")
    }

    /// True when a message is waiting (without taking it).
    var hasMessage: Bool { inbox.withLock { !$0.isEmpty } }

    /// Asserts nothing arrives for `seconds`.
    func nothing(seconds: Double = 0.3) async throws -> ServerMessage? {
        try await Task.sleep(for: .milliseconds(Int(seconds * 1_000)))
        return inbox.withLock { $0.first }
    }

    /// Sends a message.
    func send(_ message: ClientMessage) async throws {
        try await sendText(message.text)
    }

    /// Sends raw text.
    func sendText(_ text: String) async throws {
        guard let channel = channel.withLock({ $0 }) else { throw Timeout(waitingFor: "the channel") }
        try await channel.sendText(text)
    }

    /// Closes the connection from this side and waits for its end.
    func close() async {
        if let channel = channel.withLock({ $0 }) { await channel.close() }
        _ = try? await closed()
    }

    /// Waits (up to `seconds`) for the connection to end; answers the server's close status.
    func closed(seconds: Double = 60) async throws -> SignalingClose {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1_000))
        while ContinuousClock.now < deadline {
            if let result = ended.withLock({ $0 }) { return try result.get() }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw Timeout(waitingFor: "the close")
    }

    /// Cancels the connection without a closing handshake.
    func cancel() {
        task.withLock { $0?.cancel() }
    }
}
