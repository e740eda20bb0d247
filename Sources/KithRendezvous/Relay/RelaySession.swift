import HummingbirdWSClient
import KithSync
import KithTDF
import Logging
import NIOCore

/// One relay session of ``RelayConnection``: runs its signaling sockets one at a time (``runSocket(rejoining:)``),
/// each with a reader, a heartbeat, an idle watch and the relay attempts (entry, then `body`).
struct RelaySession<Result: Sendable>: Sendable {
    let url: String
    let room: RoomID
    let device: DeviceID?
    let timeouts: RelayTimeouts
    let nanoTDF: (any NanoTDFReceiver)?
    let reconnecting: Bool
    let events: @Sendable (RelayEvent) -> Void
    let restartWhen: @Sendable (Result) -> Bool
    let logger: Logger
    let body: @Sendable (RelayTransport, RelayRole) async throws -> Result

    /// How one socket ended.
    enum SocketOutcome: Sendable {
        /// The session is over: `body`'s result, or why the relay could not run.
        case finished(Swift.Result<Result, any Error>)
        /// The socket dropped before the session ended; `reachedRoom` when it had joined the room, `fallback` what
        /// the session answers if it does not reconnect.
        case dropped(reachedRoom: Bool, fallback: Swift.Result<Result, any Error>)
    }

    /// What a socket task ended.
    private enum SocketTask: Sendable { case attempts, reader, heartbeat, idleWatch }

    /// Opens one socket and runs relay attempts on it until the session ends or the socket drops.
    func runSocket(rejoining: Bool) async -> SocketOutcome {
        let configuration = WebSocketClientConfiguration(
            maxFrameSize: 2 * RendezvousLimits.maximumSignalingMessageBytes, closeTimeout: timeouts.heartbeatTimeout, autoPing: .disabled)
        let outcome = ResultBox<SocketOutcome>()
        let state = RelaySocketState()
        do {
            _ = try await WebSocketClient.connect(url: url, configuration: configuration, logger: logger) { inbound, outbound, _ in
                let (control, controlInput) = AsyncStream.makeStream(of: RelayControl.self, bufferingPolicy: .bufferingOldest(64))
                await withTaskGroup(of: SocketTask.self) { group in
                    group.addTask {
                        await Self.read(inbound, state: state, nanoTDF: nanoTDF, control: controlInput)
                        return .reader
                    }
                    group.addTask {
                        await Self.heartbeat(outbound, state: state, timeouts: timeouts)
                        return .heartbeat
                    }
                    group.addTask {
                        await Self.watchIdle(state, idle: timeouts.idle)
                        return .idleWatch
                    }
                    group.addTask {
                        outcome.set(.success(await attempts(
                            rejoining: rejoining, outbound: outbound, state: state, control: control, controlInput: controlInput)))
                        if !state.isSocketDropped { try? await outbound.close(.normalClosure, reason: nil) }
                        return .attempts
                    }
                    // The reader ending lets the attempts end by themselves (their inbox and control end); a missed
                    // pong leaves a socket that may never end: everything is cancelled.
                    while let ended = await group.next() {
                        if ended == .attempts || ended == .heartbeat { break }
                    }
                    group.cancelAll()
                }
            }
        } catch {
            if outcome.get() == nil {
                return .dropped(reachedRoom: false, fallback: .failure(RelayError.rendezvous(.transport(String(describing: error)))))
            }
        }
        guard case .success(let result)? = outcome.get() else { return .dropped(reachedRoom: false, fallback: .failure(RelayError.closed)) }
        return result
    }

    /// Relay attempts on one socket: enter the relay, run `body`; again while the peer's drops cut it short.
    private func attempts(
        rejoining: Bool, outbound: WebSocketOutboundWriter, state: RelaySocketState, control: AsyncStream<RelayControl>,
        controlInput: AsyncStream<RelayControl>.Continuation
    ) async -> SocketOutcome {
        var controlEvents = control.makeAsyncIterator()
        var entry = RelayEntry(room: room, device: device, fresh: true, resuming: rejoining)
        var reachedRoom = false
        var resumed = rejoining
        while true {
            let entered: (RelayRole, RelayFrameInbox)
            do {
                entered = try await entry.enter(
                    outbound: outbound, control: &controlEvents, controlInput: controlInput, wait: timeouts.peer
                ) {
                    reachedRoom = true
                    if rejoining { events(.reconnected) }
                }
            } catch {
                if state.isSocketDropped {
                    return .dropped(reachedRoom: reachedRoom, fallback: .failure(error))
                }
                return .finished(.failure(error))
            }
            if resumed { events(.resumed) }
            let transport = RelayTransport(outbound: outbound, inbox: entered.1, socket: state)
            let result: Swift.Result<Result, any Error>
            do {
                result = .success(try await body(transport, entered.0))
            } catch {
                result = .failure(error)
            }
            await transport.close()
            let cutShort = switch result {
            case .success(let value): restartWhen(value)
            case .failure: true
            }
            guard reconnecting else { return .finished(result) }
            if cutShort && state.isSocketDropped { return .dropped(reachedRoom: reachedRoom, fallback: result) }
            guard cutShort && state.isPeerDropped else {
                // Said before the socket closes, behind every frame sent: the peer knows the session ended on purpose.
                try? await outbound.write(.text(ClientMessage.leaveRoom.text))
                return .finished(result)
            }
            events(.peerConnectionLost)
            entry = RelayEntry(room: room, device: device, fresh: false, resuming: true)
            resumed = true
        }
    }
}
