import HummingbirdWSClient
import KithSync
import KithTDF
import Logging
import NIOCore

/// Opens the blind relay of a paired room: joins it over signaling, waits for the other device,
/// switches both to relay mode (`relay_start` → `relay_ready`) and hands the body a
/// ``RelayTransport`` and this device's ``RelayRole``.
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
    /// - Throws: ``RelayError`` when the room cannot be joined or the peer does not come;
    ///   errors thrown by `body` unchanged.
    public static func open<Result: Sendable>(
        signalingURL: String,
        room: RoomID,
        device: DeviceID?,
        timeouts: RelayTimeouts = RelayTimeouts(),
        nanoTDF: (any NanoTDFReceiver)? = nil,
        logger: Logger = Logger(label: "kith.rendezvous.relay"),
        body: @escaping @Sendable (RelayTransport, RelayRole) async throws -> Result
    ) async throws -> Result {
        guard signalingURL.hasPrefix("ws://") || signalingURL.hasPrefix("wss://") else {
            throw RelayError.rendezvous(.invalidURL(signalingURL))
        }
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 2 * RendezvousLimits.maximumSignalingMessageBytes, autoPing: .enabled(timePeriod: .seconds(25)))
        let outcome = ResultBox<Result>()
        do {
            _ = try await WebSocketClient.connect(url: signalingURL, configuration: configuration, logger: logger) { inbound, outbound, _ in
                let inbox = RelayFrameInbox(capacity: inboxCapacity)
                let (control, controlInput) = AsyncStream.makeStream(of: RelayControl.self, bufferingPolicy: .bufferingOldest(64))
                await withTaskGroup(of: Void.self) { group in
                    group.addTask { await pump(inbound, inbox: inbox, nanoTDF: nanoTDF, control: controlInput) }
                    group.addTask { try? await watch(inbox, idle: timeouts.idle) }
                    group.addTask {
                        guard (try? await Task.sleep(for: timeouts.peer)) != nil else { return }
                        controlInput.yield(.deadline)
                    }
                    outcome.set(await run(room: room, device: device, outbound: outbound, control: control, inbox: inbox, body: body))
                    try? await outbound.close(.normalClosure, reason: nil)
                    group.cancelAll()
                }
            }
        } catch {
            if outcome.get() == nil { throw RelayError.rendezvous(.transport(String(describing: error))) }
        }
        guard let result = outcome.get() else { throw RelayError.closed }
        return try result.get()
    }

    /// Enters the relay, then runs `body` over it.
    private static func run<Result: Sendable>(
        room: RoomID, device: DeviceID?, outbound: WebSocketOutboundWriter, control: AsyncStream<RelayControl>, inbox: RelayFrameInbox,
        body: @Sendable (RelayTransport, RelayRole) async throws -> Result
    ) async -> Swift.Result<Result, any Error> {
        let role: RelayRole
        do {
            role = try await enter(room: room, device: device, outbound: outbound, control: control)
        } catch {
            return .failure(error)
        }
        let transport = RelayTransport(outbound: outbound, inbox: inbox)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(transport, role))
        } catch {
            result = .failure(error)
        }
        await transport.close()
        return result
    }

    /// Reads the socket: binary messages are relay messages (link frames to the inbox, NanoTDF to
    /// `nanoTDF`), text messages signaling; the peer leaving ends the frames.
    private static func pump(
        _ inbound: WebSocketInboundStream, inbox: RelayFrameInbox, nanoTDF: (any NanoTDFReceiver)?,
        control: AsyncStream<RelayControl>.Continuation
    ) async {
        defer { control.finish() }
        var relaying = false
        do {
            for try await message in inbound.messages(maxSize: 2 * RendezvousLimits.maximumSignalingMessageBytes) {
                switch message {
                case .binary(let buffer):
                    // A link frame (0x01 prefix, 1...509 bytes) or a NanoTDF (its magic); anything else ends the link.
                    do throws(SyncTransportError) {
                        switch try RelayMessage(decoding: Array(buffer.readableBytesView)) {
                        case .linkFrame(let frame): await inbox.push(frame)
                        case .nanoTDF(let bytes): await route(bytes, to: nanoTDF)
                        }
                    } catch {
                        await inbox.finish(error)
                    }
                case .text(let text):
                    guard let decoded = try? ServerMessage(bytes: Array(text.utf8)) else { continue }
                    // Before `relay_ready` the entry steps handle a peer that leaves (it may come back).
                    switch decoded {
                    case .relayReady: relaying = true
                    case .peerLeft where relaying, .leftRoom where relaying: await inbox.finish(.closed)
                    case .peerDisconnected where relaying: await inbox.finish(.disconnected)
                    default: break
                    }
                    control.yield(.message(decoded))
                }
            }
            await inbox.finish(.closed)
        } catch {
            await inbox.finish(.disconnected)
        }
    }

    /// Ends a receive that waited longer than `idle`.
    /// Hands a NanoTDF to the receiver, parsed; never to the secure link.
    private static func route(_ bytes: [UInt8], to receiver: (any NanoTDFReceiver)?) async {
        guard let receiver else { return }
        do throws(NanoTDFError) {
            await receiver.received(try NanoTDF(parsing: bytes))
        } catch {
            await receiver.rejected(error)
        }
    }

    private static func watch(_ inbox: RelayFrameInbox, idle: Duration) async throws {
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            if await inbox.isStalled(timeout: idle) { await inbox.finish(.idleTimeout) }
        }
    }

    /// Joins the room and switches to the relay; answers this device's role.
    private static func enter(
        room: RoomID, device: DeviceID?, outbound: WebSocketOutboundWriter, control: AsyncStream<RelayControl>
    ) async throws -> RelayRole {
        var role: RelayRole = .responder
        var state = EntryState.connecting
        for await event in control {
            guard case .message(let message) = event else { throw RelayError.peerTimeout }
            switch (state, message) {
            case (.connecting, .connected):
                try await write(.joinRoom(roomID: room, deviceID: device), outbound)
                state = .joining
            case (_, .roomJoined(_, _, let isInitiator, _)):
                role = isInitiator ? .initiator : .responder
                if state == .connecting || state == .joining { state = .waitingForPeer }
            case (_, .roomReady(_, _, _, let isInitiator)):
                role = isInitiator ? .initiator : .responder
                try await write(.relayStart, outbound)
                state = .switching
            case (.switching, .relayReady):
                return role
            case (_, .roomFull):
                throw RelayError.roomFull
            case (_, .peerLeft), (_, .peerDisconnected):
                // The peer may come back within the wait: the relay restarts on its `room_ready`.
                state = .waitingForPeer
            case (_, .error(let text)):
                throw RelayError.refused(text)
            default:
                continue
            }
        }
        throw RelayError.closed
    }

    /// What the entry steps wait for: a message from the server, or the end of the wait.
    private enum RelayControl: Sendable {
        case message(ServerMessage)
        case deadline
    }

    private enum EntryState: Equatable {
        case connecting, joining, waitingForPeer, switching
    }

    private static func write(_ message: ClientMessage, _ outbound: WebSocketOutboundWriter) async throws {
        do {
            try await outbound.write(.text(message.text))
        } catch {
            throw RelayError.closed
        }
    }
}
