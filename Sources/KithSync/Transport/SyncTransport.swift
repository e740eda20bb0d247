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
    /// Declares that a task of this side other than the one reading is about to send, so a
    /// transport that detects stalls (both sides reading, nothing in flight) does not mistake
    /// this moment for one. Each call is balanced by one ``sendingEnded()``.
    func sendingBegan() async
    /// Ends one ``sendingBegan()`` declaration.
    func sendingEnded() async
}

extension SyncTransport {
    /// Real transports time out on a wall clock and ignore the declaration.
    public func sendingBegan() async {}
    /// Real transports time out on a wall clock and ignore the declaration.
    public func sendingEnded() async {}
}
