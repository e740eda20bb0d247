/// Why a ``SecureLink`` failed; every case except ``peerNotAllowed`` means the link is unusable.
public enum SecureLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The transport failed.
    case transport(SyncTransportError)
    /// The Noise handshake failed (wrong keys, tampering, malformed message).
    case handshake(NoiseError)
    /// The peer's static key is not on the allow-list; the link was closed before any sync data was sent.
    case peerNotAllowed
    /// The peer chose a handshake pattern this side does not offer.
    case unsupportedPattern(UInt8)
    /// The peer's Hello is malformed or from an unsupported version.
    case invalidHello(SyncWireError)
    /// A handshake message was damaged by a lost link frame.
    case handshakeFrameLost
    /// A sealed frame failed authentication (tampered, replayed, or more than 65535 frames lost).
    case authenticationFailed
    /// A sealed frame is too short to hold a nonce and a tag.
    case malformedSealedFrame
    /// A decrypted plaintext holds a malformed record.
    case malformedRecord(SyncWireError)
    /// A record does not fit in one sealed frame of this link.
    case recordTooLarge(Int, capacity: Int)
    /// A link frame had no segment header.
    case emptyLinkFrame
    /// A link message exceeded the reassembly bound.
    case linkMessageTooLong(Int)
    /// The transport's MTU is outside 20...509.
    case unsupportedMTU(Int)
    /// The send counter reached its bound; re-establish the link.
    case nonceExhausted
    /// Only one receive may wait at a time.
    case concurrentReceive
    /// The link was closed.
    case closed

    public var description: String {
        switch self {
        case .transport(let error): "transport failed: \(error)"
        case .handshake(let error): "handshake failed: \(error)"
        case .peerNotAllowed: "peer's static key is not an allowed contact; link closed before any sync data"
        case .unsupportedPattern(let selector): "peer asked for unsupported handshake pattern 0x\(String(selector, radix: 16))"
        case .invalidHello(let error): "peer Hello refused: \(error)"
        case .handshakeFrameLost: "a handshake frame was lost; reconnect"
        case .authenticationFailed: "sealed frame failed authentication (tampered or replayed); link closed"
        case .malformedSealedFrame: "sealed frame shorter than nonce and tag"
        case .malformedRecord(let error): "decrypted frame holds a malformed record: \(error)"
        case .recordTooLarge(let size, let capacity): "record of \(size) bytes does not fit a sealed frame of \(capacity) plaintext bytes"
        case .emptyLinkFrame: "empty link frame"
        case .linkMessageTooLong(let limit): "link message exceeds \(limit) bytes"
        case .unsupportedMTU(let mtu): "MTU \(mtu) outside \(SyncLimits.minimumMTU)...\(SyncLimits.maximumMTU)"
        case .nonceExhausted: "frame counter exhausted; re-establish the link"
        case .concurrentReceive: "another receive is already waiting on this link"
        case .closed: "the secure link is closed"
        }
    }
}
