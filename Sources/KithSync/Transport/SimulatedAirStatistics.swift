/// What a ``SimulatedBLELink`` counted.
public struct SimulatedAirStatistics: Hashable, Sendable {
    /// Bytes put on the air (frames plus per-frame overhead), lost frames included.
    public var bytesOnAir: Int = 0
    /// Frames put on the air.
    public var framesOnAir: Int = 0
    /// Frames lost to simulated loss or the disconnect.
    public var framesLost: Int = 0
    /// Frames delivered.
    public var framesDelivered: Int = 0
    /// Seconds the medium was busy: bytes on air × 8 / bandwidth. Deterministic for a given exchange.
    public var airTimeSeconds: Double = 0
    /// The later of both sides' virtual clocks, in seconds: air time plus latency waits. It depends
    /// slightly on how the two sides' tasks interleave (who reserves the shared medium first).
    public var elapsedSeconds: Double = 0
    /// True once the simulated disconnect happened.
    public var disconnected = false
}
