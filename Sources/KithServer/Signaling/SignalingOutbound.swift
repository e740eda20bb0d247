import KithRendezvous
import NIOCore

/// One frame queued for a signaling connection's writer.
enum SignalingOutbound: Sendable {
    /// A signaling message, written as a text frame.
    case message(ServerMessage)
    /// A relayed binary frame from the peer, written as it came.
    case relay(ByteBuffer)
}
