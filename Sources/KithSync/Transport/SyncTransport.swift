/// A connection that carries link frames of at most ``mtu`` bytes, in order, between two devices.
///
/// For BLE GATT, one link frame is one ATT write or notification payload, so ``mtu`` is the
/// negotiated ATT MTU minus 3 (20...509 bytes). Implementations may lose frames (the layers above
/// detect gaps) but never reorder or corrupt them silently.
public protocol SyncTransport: Sendable {
    /// The largest link frame in bytes (ATT MTU − 3), fixed for the connection.
    var mtu: Int { get }
    /// Sends one link frame of 1...``mtu`` bytes.
    func send(_ frame: [UInt8]) async throws(SyncTransportError)
    /// Waits for the next link frame.
    func receive() async throws(SyncTransportError) -> [UInt8]
    /// Closes the connection gracefully: frames already sent are still delivered, then pending and
    /// later calls on both sides fail with ``SyncTransportError/closed``.
    func close() async
}
