import KithRendezvous

/// Where a signaling connection lives: the node that holds its socket and its client id there.
public struct MemberAddress: Sendable, Hashable {
    /// The node (``RendezvousServerConfiguration/nodeID``).
    public var node: String
    /// The connection.
    public var client: ClientID

    /// Creates an address.
    public init(node: String, client: ClientID) {
        self.node = node
        self.client = client
    }
}
