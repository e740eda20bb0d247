import HummingbirdWSClient
import KithSync
import KithTDF
import Logging
import NIOCore

/// Opens the blind relay of a paired room: joins it over signaling, waits for the other device,
/// switches both to relay mode (`relay_start` → `relay_ready`) and hands the body a
/// ``RelayTransport`` and this device's ``RelayRole``.
///
/// The socket sends the signaling `ping` every ``RelayTimeouts/heartbeatInterval`` and treats a `pong` missing for
/// ``RelayTimeouts/heartbeatTimeout`` as a drop. With a ``ReconnectPolicy``, a session interrupted by a drop (this
/// device's socket, or the peer's `peer_disconnected`) goes on: the socket is opened again with backoff, the room
/// re-joined with the same device id, and `body` runs again on the new relay (the secure link's handshake starts over).
public enum RelayConnection {
    /// Relay frames buffered before the reader stops reading the socket.
    static let inboxCapacity = 256

    /// Runs `body` over the relay of `room` and closes the connection when it returns.
    ///
    /// - Parameters:
    ///   - signalingURL: the server's WebSocket, such as `ws://127.0.0.1:7460/`.
    ///   - room: the room both devices paired into (``RendezvousClient/accept(_:)`` or
    ///     ``RendezvousClient/check(_:)``).
    ///   - device: this device's ephemeral id in the pairing (keeps its role across rejoins).
    ///   - nanoTDF: where the NanoTDF messages the peer sends on the relay go (``RelayMessage``);
    ///     without one they are dropped. Link frames always go to the transport.
    ///   - reconnect: how to retry after a drop mid-session; nil ends the session at the first drop (as the body
    ///     sees it). With a policy, a finished session says so with `leave_room` (the peer gets `peer_left`, not
    ///     `peer_disconnected`, and does not wait for it to come back).
    ///   - events: progress (drops, reconnection attempts) for the user.
    ///   - restartWhen: whether a value `body` returned means the session was cut short (run it again after a
    ///     drop); a thrown error always does.
    /// - Throws: ``RelayError`` when the room cannot be joined, the peer does not come, or reconnection gave up
    ///   (``RelayError/reconnectFailed(server:attempts:)``); errors thrown by `body` unchanged.
    public static func open<Result: Sendable>(
        signalingURL: String,
        room: RoomID,
        device: DeviceID?,
        timeouts: RelayTimeouts = RelayTimeouts(),
        nanoTDF: (any NanoTDFReceiver)? = nil,
        reconnect: ReconnectPolicy? = nil,
        events: @escaping @Sendable (RelayEvent) -> Void = { _ in },
        restartWhen: @escaping @Sendable (Result) -> Bool = { _ in false },
        logger: Logger = Logger(label: "kith.rendezvous.relay"),
        body: @escaping @Sendable (RelayTransport, RelayRole) async throws -> Result
    ) async throws -> Result {
        guard signalingURL.hasPrefix("ws://") || signalingURL.hasPrefix("wss://") else {
            throw RelayError.rendezvous(.invalidURL(signalingURL))
        }
        let session = RelaySession(
            url: signalingURL, room: room, device: device, timeouts: timeouts, nanoTDF: nanoTDF, reconnecting: reconnect != nil,
            events: events, restartWhen: restartWhen, logger: logger, body: body)
        var generator = SystemRandomNumberGenerator()
        var attempt = 0
        var droppedAt = ContinuousClock.now
        var joinedOnce = false
        while true {
            if attempt > 0, let reconnect {
                guard let delay = reconnect.delay(beforeAttempt: attempt, elapsed: .now - droppedAt, using: &generator) else {
                    throw RelayError.reconnectFailed(server: signalingURL, attempts: attempt - 1)
                }
                events(.reconnecting(attempt: attempt, delay: delay))
                do {
                    try await Task.sleep(for: delay)
                } catch {
                    throw RelayError.closed
                }
            }
            switch await session.runSocket(rejoining: joinedOnce) {
            case .finished(let result):
                return try result.get()
            case .dropped(let reachedRoom, let fallback):
                joinedOnce = joinedOnce || reachedRoom
                guard reconnect != nil, joinedOnce else { return try fallback.get() }
                if reachedRoom {
                    events(.connectionLost)
                    droppedAt = .now
                    attempt = 1
                } else {
                    attempt += 1
                }
            }
        }
    }
}
