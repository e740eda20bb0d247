import KithCanonical

/// Why a pool exchange message was refused. The exchange stops; nothing was stored and the
/// next sync session may start a new one.
public enum PoolExchangeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message is truncated or has trailing bytes.
    case malformed(ByteReaderError)
    /// A format version this build does not speak.
    case unsupportedVersion(UInt8)
    /// An unknown message kind byte.
    case unknownMessageKind(UInt8)
    /// A pool size or key count outside 1...``PoolExchangeMessage/maximumKeys`` (or above this side's limit).
    case invalidPoolSize(Int)
    /// The secure link's handshake hash given as channel binding is longer than its u16 length field.
    case channelBindingTooLong(Int)
    /// The message names another exchange than the one in progress.
    case exchangeMismatch
    /// An echoed nonce differs from the one this side sent (a replayed or spliced message).
    case nonceMismatch
    /// The initiator's digest of the offered keys differs from what this side offered.
    case offerDigestMismatch
    /// The commit's confirmation does not match this side's transcript.
    case confirmationMismatch
    /// The peer sent a different number of keys than the request asked for.
    case keyCountMismatch(expected: Int, received: Int)
    /// The peer's keys are not valid distinct compressed P-256 points.
    case invalidKeys(OneTimeKeyPoolError)
    /// The message came at a point of the handshake where it is not expected.
    case unexpectedMessage(PoolExchangeMessage.Kind)

    /// A sentence saying what went wrong and what to do.
    public var description: String {
        switch self {
        case .malformed(let error): "malformed pool exchange message: \(error)"
        case .unsupportedVersion(let version): "pool exchange version \(version) is not supported (this build speaks \(PoolExchangeMessage.version))"
        case .unknownMessageKind(let kind): "unknown pool exchange message kind 0x\(Hex.encode([kind]))"
        case .invalidPoolSize(let size): "pool size \(size) is outside what this side accepts (1...\(PoolExchangeMessage.maximumKeys))"
        case .channelBindingTooLong(let count): "the channel binding is \(count) bytes; at most 65,535 fit the transcript"
        case .exchangeMismatch: "the message belongs to another pool exchange: start a new one"
        case .nonceMismatch: "echoed nonce does not match: the exchange was replayed or spliced, start a new one"
        case .offerDigestMismatch: "the peer acknowledged other keys than the ones offered: start a new exchange"
        case .confirmationMismatch: "the commit does not confirm this exchange: nothing is kept, start a new one"
        case .keyCountMismatch(let expected, let received): "the peer sent \(received) keys, \(expected) were agreed"
        case .invalidKeys(let error): "the peer's keys were refused: \(error)"
        case .unexpectedMessage(let kind): "pool exchange message \(kind) is not expected now"
        }
    }
}
