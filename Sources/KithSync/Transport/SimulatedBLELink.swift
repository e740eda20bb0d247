/// An in-memory BLE link for tests and benchmarks: two connected ``SimulatedBLEEndpoint``s.
///
/// Models MTU, shared-medium bandwidth, latency, seeded loss and a disconnect after N bytes or
/// seconds, on a virtual clock (deterministic and instant). Counts bytes on the air.
public enum SimulatedBLELink {
    /// Creates a connected pair: the central (usually the initiator) and the peripheral.
    public static func makePair(configuration: SimulatedBLEConfiguration = SimulatedBLEConfiguration())
        -> (central: SimulatedBLEEndpoint, peripheral: SimulatedBLEEndpoint) {
        let air = SimulatedAir(configuration: configuration)
        return (SimulatedBLEEndpoint(air: air, side: 0), SimulatedBLEEndpoint(air: air, side: 1))
    }
}
