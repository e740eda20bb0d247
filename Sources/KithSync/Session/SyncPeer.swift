/// A sync peer, identified by its authenticated Noise static key.
public struct SyncPeer: Hashable, Sendable {
    /// The peer's 32-byte static public key.
    public var staticKey: [UInt8]

    /// Wraps a static key.
    public init(staticKey: [UInt8]) { self.staticKey = staticKey }
}
