/// Why a ``SyncTransport`` could not send or receive a link frame.
public enum SyncTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The frame is larger than the negotiated MTU.
    case frameTooLarge(size: Int, mtu: Int)
    /// Link frames are never empty.
    case emptyFrame
    /// The radio link dropped (out of range, supervision timeout).
    case disconnected
    /// This side or the peer closed the link.
    case closed
    /// Nothing arrived within the idle timeout.
    case idleTimeout
    /// Only one receive may wait at a time.
    case concurrentReceive
    /// A TCP peer announced a frame of 0 bytes or more than the MTU; the connection was closed.
    case invalidFrameLength(Int, mtu: Int)
    /// A TCP connection could not be made or a port could not be bound.
    case connectionFailed(String)
    /// A relay message starts with a kind byte that is neither a link frame nor NanoTDF; the link was closed.
    case unknownFrameKind(UInt8)

    public var description: String {
        switch self {
        case .frameTooLarge(let size, let mtu): "link frame of \(size) bytes exceeds the negotiated MTU of \(mtu)"
        case .emptyFrame: "link frames must not be empty"
        case .disconnected: "the link disconnected"
        case .closed: "the link is closed"
        case .idleTimeout: "nothing was received within the idle timeout"
        case .concurrentReceive: "another receive is already waiting on this link"
        case .invalidFrameLength(let length, let mtu): "the peer sent a frame length of \(length), outside 1...\(mtu); connection closed"
        case .connectionFailed(let detail): "TCP connection failed: \(detail)"
        case .unknownFrameKind(let kind): "the peer sent a relay message of unknown kind \(kind); connection closed"
        }
    }
}
