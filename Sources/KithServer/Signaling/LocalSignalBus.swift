import KithRendezvous
import Synchronization

/// The signaling connections of this node, by client id, and delivery to them.
///
/// Events for another node go to the cross-node fan-out when there is one
/// (``PostgresSignalBus``); without one they are dropped (and counted).
final class LocalSignalBus: SignalBus {
    let nodeID: String
    private let connections = Mutex<[ClientID: SignalingConnection]>([:])
    private let undeliverable = Atomic<Int>(0)
    private let remote = Mutex<PostgresSignalBus?>(nil)

    /// Sends events for other nodes through `fanout`.
    func route(remote fanout: PostgresSignalBus) {
        remote.withLock { $0 = fanout }
    }

    init(nodeID: String) { self.nodeID = nodeID }

    /// Adds a connection unless `limit` connections are already registered.
    func register(_ connection: SignalingConnection, limit: Int) -> Bool {
        connections.withLock { table in
            guard table.count < limit else { return false }
            table[connection.address.client] = connection
            return true
        }
    }

    /// Removes a connection.
    func unregister(_ client: ClientID) {
        _ = connections.withLock { $0.removeValue(forKey: client) }
    }

    /// Connections registered now.
    var count: Int { connections.withLock { $0.count } }

    /// The connections registered now (for shutdown).
    var registered: [SignalingConnection] { connections.withLock { Array($0.values) } }

    /// Events that found no connection.
    var undeliverableCount: Int { undeliverable.load(ordering: .relaxed) }

    func deliver(_ event: SignalEvent, to address: MemberAddress) {
        if address.node != nodeID, let fanout = remote.withLock({ $0 }) {
            return fanout.send(event, to: address)
        }
        let target = address.node == nodeID ? connections.withLock { $0[address.client] } : nil
        guard let target else {
            undeliverable.add(1, ordering: .relaxed)
            return
        }
        target.receive(event)
    }
}
