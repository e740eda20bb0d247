import KithSync

/// Why a relay chat failed.
public enum ChatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relay failed (peer gone, server closed, idle timeout).
    case transport(SyncTransportError)
    /// The Noise handshake failed (tampered, wrong protocol).
    case handshake(NoiseError)
    /// A message failed authentication: tampered or replayed.
    case authenticationFailed
    /// A decrypted message is not a chat message (unknown kind, not UTF-8, too long).
    case malformedMessage
    /// A line to send is longer than ``ChatLimits/maximumLineBytes``.
    case lineTooLong(Int)

    /// One sentence with the cause.
    public var description: String {
        switch self {
        case .transport(.closed), .transport(.disconnected): "the other person left"
        case .transport(let error): "the relay failed: \(error)"
        case .handshake(let error): "the encrypted handshake failed: \(error)"
        case .authenticationFailed: "a message failed authentication (tampered or replayed); chat closed"
        case .malformedMessage: "the other side sent a malformed message; chat closed"
        case .lineTooLong(let bytes): "line of \(bytes) bytes is longer than \(ChatLimits.maximumLineBytes); split it"
        }
    }
}
