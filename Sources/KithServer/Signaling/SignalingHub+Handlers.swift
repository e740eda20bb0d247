import HummingbirdWebSocket
import Logging

extension SignalingHub {
    /// Time between the upgrade and the close frame of a refused connection (see
    /// `WebSocketOutboundWriter.refusalGrace`).
    static var refusalGrace: Duration { WebSocketOutboundWriter.refusalGrace }

    /// A connection served by a ``SignalingChannelHandler`` ended: forget it on the bus, count a
    /// slow consumer, then leave its room and tell the peer (in a short task: the store is async).
    func connectionEnded(_ connection: SignalingConnection, logger: Logger) {
        bus.unregister(connection.address.client)
        if connection.closeReason == .slowConsumer { metrics.signalingRejected(.slowConsumer) }
        Task { await disconnect(connection, logger: logger) }
    }
}
