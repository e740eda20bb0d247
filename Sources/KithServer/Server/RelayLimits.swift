/// Bounds of the blind relay, per connection (`docs/SERVER.md`, section 3.1).
public struct RelayLimits: Sendable {
    /// Largest relay frame (one binary WebSocket message), in bytes; a larger one closes the
    /// connection with 1009. Never above ``RendezvousServerLimits/maximumMessageBytes``, which
    /// bounds every WebSocket message first.
    public var maximumFrameBytes = 65_536
    /// Relay bytes one connection may send: 4 MiB at once, 1 MiB a second after. Frames over the
    /// budget are held (the server stops reading that socket until the bucket refills), never dropped.
    public var bytesPerConnection = RateLimitRule(burst: 4 * 1_048_576, perSecond: 1_048_576)
    /// Relay frames one connection may send: 4,096 at once, 2,048 a second after (held like bytes).
    public var framesPerConnection = RateLimitRule(burst: 4_096, perSecond: 2_048)
    /// Relay bytes queued for one slow reader; beyond it the reader is closed with 1008.
    public var outboxBytes = 2 * 1_048_576
    /// Relay frames queued for one slow reader; beyond it the reader is closed with 1008.
    public var outboxFrames = 4_096

    /// The documented defaults.
    public init() {}
}
