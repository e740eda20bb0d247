import Synchronization

/// Counters of the blind relay on this node, in one place for metrics (`/metrics` reads them).
///
/// Every counter only grows. Bytes and frames are counted where they enter the relay (the
/// sender's node), whether the peer is on this node or another.
public final class RelayStatistics: Sendable {
    private let bytes = Atomic<Int>(0)
    private let frames = Atomic<Int>(0)
    private let activations = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)
    private let shaped = Atomic<Int>(0)

    /// Empty counters.
    public init() {}

    /// Payload bytes of the binary frames forwarded.
    public var bytesRelayed: Int { bytes.load(ordering: .relaxed) }
    /// Binary frames forwarded.
    public var framesRelayed: Int { frames.load(ordering: .relaxed) }
    /// Connections that entered relay mode (two per paired room).
    public var relayActivations: Int { activations.load(ordering: .relaxed) }
    /// Binary frames refused: above the frame limit, or sent while the relay was not active.
    public var framesRefused: Int { refusals.load(ordering: .relaxed) }
    /// Frames held back by the byte or frame rate limit before they were forwarded.
    public var framesDelayed: Int { shaped.load(ordering: .relaxed) }

    func recordForwarded(bytes count: Int) {
        bytes.add(count, ordering: .relaxed)
        frames.add(1, ordering: .relaxed)
    }

    func recordActivation() { activations.add(1, ordering: .relaxed) }

    func recordRefusal() { refusals.add(1, ordering: .relaxed) }

    func recordDelay() { shaped.add(1, ordering: .relaxed) }
}
