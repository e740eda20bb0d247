/// A datagram heard on the LAN and where it came from.
public struct NearbyDatagram: Sendable {
    /// The payload.
    public var bytes: [UInt8]
    /// The sender's IP address (text form), where its TCP listener is reached.
    public var sourceHost: String

    /// Creates a datagram.
    public init(bytes: [UInt8], sourceHost: String) {
        self.bytes = bytes
        self.sourceHost = sourceHost
    }
}

/// Sends beacons to the LAN and hears others' (UDP multicast, or an in-memory network in tests).
public protocol NearbyDatagramTransport: Sendable {
    /// Every datagram heard (this side's own included when the network loops them back).
    var datagrams: AsyncStream<NearbyDatagram> { get }
    /// Sends one datagram to the group.
    func send(_ bytes: [UInt8]) async throws(NearbyError)
    /// Stops; ``datagrams`` finishes.
    func close() async
}
