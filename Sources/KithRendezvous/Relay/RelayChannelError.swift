import KithSync

/// Why a ``RelayNoiseChannel`` failed.
public enum RelayChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relay failed (peer gone, server closed, idle timeout).
    case transport(SyncTransportError)
    /// The Noise handshake failed (tampered, wrong protocol).
    case handshake(NoiseError)
    /// A handshake message carried a payload; this channel's handshakes carry none.
    case unexpectedHandshakePayload
    /// A message failed authentication: tampered, replayed or reordered.
    case authenticationFailed
    /// A message to send is longer than ``RelayNoiseChannel/maximumPlaintextBytes``.
    case messageTooLarge(Int)

    /// One sentence with the cause.
    public var description: String {
        switch self {
        case .transport(let error): "the relay failed: \(error)"
        case .handshake(let error): "the encrypted handshake failed: \(error)"
        case .unexpectedHandshakePayload: "the other side sent a malformed handshake"
        case .authenticationFailed: "a message failed authentication (tampered or replayed)"
        case .messageTooLarge(let bytes): "a message of \(bytes) bytes is longer than \(RelayNoiseChannel.maximumPlaintextBytes)"
        }
    }
}
