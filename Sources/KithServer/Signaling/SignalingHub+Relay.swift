import KithRendezvous
import NIOCore

extension SignalingHub {
    /// `relay_start`: records the request, tells the peer; `relay_ready` goes to each member once
    /// both asked.
    func startRelay(on connection: SignalingConnection) {
        switch connection.requestRelay() {
        case .notInRoom: connection.send(.error(SignalingText.notInRoom))
        case .noPeer: connection.send(.error(SignalingText.roomNotReady))
        case .requested(let room, let peer):
            bus.deliver(.relayRequested(from: connection.address, room: room), to: peer)
        }
    }

    /// Forwards one relay frame to the peer, unread: refused above the frame limit (close 1009)
    /// or while the relay is not active (`Relay not active`); held while the connection is over
    /// its byte or frame rate (the socket is not read meanwhile, so TCP slows the sender).
    func forward(_ frame: ByteBuffer, from connection: SignalingConnection) async throws {
        guard frame.readableBytes <= limits.relay.maximumFrameBytes else {
            relayStatistics.recordRefusal()
            metrics.signalingRejected(.frameRejected)
            return connection.requestClose(.relayFrameTooLarge)
        }
        guard connection.relayTarget != nil else {
            relayStatistics.recordRefusal()
            metrics.signalingRejected(.badMessage)
            return connection.send(.error(SignalingText.relayNotReady))
        }
        var delayed = false
        while true {
            let wait = connection.takeRelayBudget(bytes: frame.readableBytes, now: clock.nowMilliseconds())
            if wait == 0 { break }
            if !delayed { relayStatistics.recordDelay() }
            delayed = true
            try await Task.sleep(for: .milliseconds(min(wait, 50)))
        }
        // The peer may have gone while this frame waited.
        guard let (room, peer) = connection.relayTarget else { return }
        relayStatistics.recordForwarded(bytes: frame.readableBytes)
        metrics.recordRelayedBytes(frame.readableBytes)
        bus.deliver(.relayFrame(from: connection.address, room: room, bytes: frame), to: peer)
    }
}
