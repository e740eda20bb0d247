import HummingbirdWSClient
import KithSync
import KithTDF
import NIOCore

extension RelaySession {
    /// Reads the socket: binary messages are relay messages (link frames to the attempt's inbox, NanoTDF to
    /// `nanoTDF`), text messages signaling; `relay_ready` starts an attempt, the peer leaving or dropping ends it.
    static func read(
        _ inbound: WebSocketInboundStream, state: RelaySocketState, nanoTDF: (any NanoTDFReceiver)?,
        control: AsyncStream<RelayControl>.Continuation
    ) async {
        defer { control.finish() }
        var ending = SyncTransportError.closed
        do {
            for try await message in inbound.messages(maxSize: 2 * RendezvousLimits.maximumSignalingMessageBytes) {
                switch message {
                case .binary(let buffer):
                    // Frames outside an attempt (before `relay_ready`, after the peer went) have no reader.
                    guard let inbox = state.inbox else { continue }
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
                    switch decoded {
                    case .relayReady:
                        let inbox = RelayFrameInbox(capacity: RelayConnection.inboxCapacity)
                        state.beginAttempt(inbox)
                        control.yield(.relayReady(inbox))
                        continue
                    case .pong:
                        state.pongReceived()
                        continue
                    case .peerLeft, .leftRoom: await state.endAttempt(peerDropped: false)?.finish(.closed)
                    case .peerDisconnected: await state.endAttempt(peerDropped: true)?.finish(.disconnected)
                    default: break
                    }
                    control.yield(.message(decoded))
                }
            }
        } catch {
            ending = .disconnected
        }
        await state.socketDropped()?.finish(ending)
    }

    /// Hands a NanoTDF to the receiver, parsed; never to the secure link.
    private static func route(_ bytes: [UInt8], to receiver: (any NanoTDFReceiver)?) async {
        guard let receiver else { return }
        do throws(NanoTDFError) {
            await receiver.received(try NanoTDF(parsing: bytes))
        } catch {
            await receiver.rejected(error)
        }
    }

    /// Sends `ping` every interval; returns when a `pong` did not come within the timeout (the socket is then
    /// dropped: the attempt's frames end with ``SyncTransportError/disconnected``), or when cancelled.
    static func heartbeat(_ outbound: WebSocketOutboundWriter, state: RelaySocketState, timeouts: RelayTimeouts) async {
        while true {
            guard (try? await Task.sleep(for: timeouts.heartbeatInterval)) != nil else { return }
            state.pingSent()
            let sent: Bool
            do {
                try await outbound.write(.text(ClientMessage.ping.text))
                sent = true
            } catch {
                sent = false
            }
            if sent {
                guard (try? await Task.sleep(for: timeouts.heartbeatTimeout)) != nil else { return }
                guard state.pongOverdue(timeout: timeouts.heartbeatTimeout) else { continue }
            }
            await state.socketDropped()?.finish(.disconnected)
            return
        }
    }

    /// Ends a receive that waited longer than `idle`.
    static func watchIdle(_ state: RelaySocketState, idle: Duration) async {
        while (try? await Task.sleep(for: .milliseconds(250))) != nil {
            if let inbox = state.inbox, await inbox.isStalled(timeout: idle) { await inbox.finish(.idleTimeout) }
        }
    }
}
