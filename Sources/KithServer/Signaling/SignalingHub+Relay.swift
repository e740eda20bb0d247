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

    /// Checks one relay frame before it waits for budget: refused above the frame limit (close
    /// 1009) or while the relay is not active (`Relay not active`); false when refused.
    func admitRelayFrame(_ frame: ByteBuffer, from connection: SignalingConnection) -> Bool {
        guard frame.readableBytes <= limits.relay.maximumFrameBytes else {
            relayStatistics.recordRefusal()
            metrics.signalingRejected(.frameRejected)
            connection.requestClose(.relayFrameTooLarge)
            return false
        }
        guard connection.relayTarget != nil else {
            relayStatistics.recordRefusal()
            metrics.signalingRejected(.badMessage)
            connection.send(.error(SignalingText.relayNotReady))
            return false
        }
        return true
    }

    /// Hands a relay frame that got its budget to the peer (dropped when the peer went while it waited).
    func deliverRelayFrame(_ frame: ByteBuffer, from connection: SignalingConnection) {
        guard let (room, peer) = connection.relayTarget else { return }
        relayStatistics.recordForwarded(bytes: frame.readableBytes)
        metrics.recordRelayedBytes(frame.readableBytes)
        bus.deliver(.relayFrame(from: connection.address, room: room, bytes: frame), to: peer)
    }
}
