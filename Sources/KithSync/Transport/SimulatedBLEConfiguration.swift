/// How a ``SimulatedBLELink`` behaves. Time is virtual: nothing sleeps.
public struct SimulatedBLEConfiguration: Hashable, Sendable {
    /// Largest link frame (ATT payload), 20...509.
    public var mtu: Int
    /// Bits per second on the shared medium (both directions share it, as on one BLE connection).
    public var bandwidthBitsPerSecond: Double
    /// One-way latency in seconds added after a frame's air time.
    public var latencySeconds: Double
    /// Probability that a link frame is lost, 0...1.
    public var lossProbability: Double
    /// Seed of the loss generator.
    public var lossSeed: UInt64
    /// Frames (both directions counted) sent before loss starts (for example to spare the handshake).
    public var lossStartsAfterFrames: Int
    /// The link drops once this many bytes were put on the air (the frame crossing it is lost).
    public var disconnectAfterBytes: Int?
    /// The link drops at this virtual time in seconds.
    public var disconnectAfterSeconds: Double?
    /// Bytes added to every frame when counting air bytes and time (0 counts ATT payloads only;
    /// 3 ATT + 4 L2CAP + 10 LL header/MIC/CRC approximates the real radio).
    public var perFrameOverheadBytes: Int
    /// Real seconds both sides must sit in `receive` with nothing in flight and no other activity
    /// before the virtual idle timeout fires (other tasks of the same side may still be about to send).
    public var stallDetectionGraceSeconds: Double
    /// Keep a copy of every frame put on the air (what a passive observer sees), for tests.
    public var recordsTranscript: Bool
    /// Virtual seconds after which a receive with nothing in flight fails with ``SyncTransportError/idleTimeout``.
    public var idleTimeoutSeconds: Double

    /// Creates a configuration; defaults model a good BLE 5 link: MTU 244, 1 Mbit/s, 15 ms latency, no loss.
    public init(
        mtu: Int = SyncLimits.defaultMTU,
        bandwidthBitsPerSecond: Double = 1_000_000,
        latencySeconds: Double = 0.015,
        lossProbability: Double = 0,
        lossSeed: UInt64 = 1,
        lossStartsAfterFrames: Int = 0,
        disconnectAfterBytes: Int? = nil,
        disconnectAfterSeconds: Double? = nil,
        perFrameOverheadBytes: Int = 0,
        idleTimeoutSeconds: Double = 30,
        recordsTranscript: Bool = false,
        stallDetectionGraceSeconds: Double = 0.25
    ) {
        self.mtu = mtu
        self.bandwidthBitsPerSecond = bandwidthBitsPerSecond
        self.latencySeconds = latencySeconds
        self.lossProbability = lossProbability
        self.lossSeed = lossSeed
        self.lossStartsAfterFrames = lossStartsAfterFrames
        self.disconnectAfterBytes = disconnectAfterBytes
        self.disconnectAfterSeconds = disconnectAfterSeconds
        self.perFrameOverheadBytes = perFrameOverheadBytes
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.recordsTranscript = recordsTranscript
        self.stallDetectionGraceSeconds = stallDetectionGraceSeconds
    }
}
