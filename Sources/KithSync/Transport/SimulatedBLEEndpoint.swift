/// One side of a ``SimulatedBLELink``; also a ``SyncClock`` reading this side's virtual time.
public final class SimulatedBLEEndpoint: SyncTransport, SyncClock {
    private let air: SimulatedAir
    private let side: Int

    init(air: SimulatedAir, side: Int) {
        self.air = air
        self.side = side
    }

    /// The configured link frame size.
    public var mtu: Int { air.configuration.mtu }

    /// The configuration shared by both sides.
    public var configuration: SimulatedBLEConfiguration { air.configuration }

    /// Puts a frame on the simulated air.
    public func send(_ frame: [UInt8]) async throws(SyncTransportError) {
        try await air.send(frame, from: side)
    }

    /// Takes the next frame for this side.
    public func receive() async throws(SyncTransportError) -> [UInt8] {
        try await air.receive(side: side)
    }

    /// Declares send work under way on this side: the link does not time out while it lasts.
    public func sendingBegan() async {
        air.declaredSenders.withLock { $0[side] += 1 }
        await air.declarationsChanged()
    }

    /// Ends one ``sendingBegan()``; when both sides are then reading with nothing in flight and
    /// no work declared, the virtual idle timeout follows.
    public func sendingEnded() async {
        air.declaredSenders.withLock { $0[side] -= 1 }
        await air.declarationsChanged()
    }

    /// Closes the link for both sides.
    public func close() async { await air.close() }

    /// This side's virtual time in seconds.
    public func now() async -> Double { await air.now(side: side) }

    /// Every frame put on the air so far, both directions, when ``SimulatedBLEConfiguration/recordsTranscript`` is set.
    public func transcript() async -> [[UInt8]] { await air.transcript }

    /// Bytes, frames and time counted so far (shared by both sides).
    public func statistics() async -> SimulatedAirStatistics { await air.currentStatistics() }
}
