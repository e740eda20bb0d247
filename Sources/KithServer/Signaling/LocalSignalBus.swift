import KithRendezvous
import Synchronization

/// The signaling connections of this node, by client id, and delivery to them.
///
/// Events for another node go to the cross-node fan-out when there is one
/// (``PostgresSignalBus``); without one they are dropped (and counted).
final class LocalSignalBus: SignalBus {
    let nodeID: String
    private let connections = Mutex<Table>(Table())
    private let undeliverable = Atomic<Int>(0)
    private let remote = Mutex<PostgresSignalBus?>(nil)

    /// Sends events for other nodes through `fanout`.
    func route(remote fanout: PostgresSignalBus) {
        remote.withLock { $0 = fanout }
    }

    init(nodeID: String) { self.nodeID = nodeID }

    /// The connections by client id, and how many each source holds.
    struct Table {
        var byClient: [ClientID: (connection: SignalingConnection, source: String)] = [:]
        var bySource: [String: Int] = [:]
    }

    /// Why ``register(_:source:limit:reserved:)`` refused a connection.
    enum Refusal: Error, Equatable {
        /// The node holds `limit` connections.
        case full
        /// Only reserved slots are left, and the source already holds a connection.
        case sourceHoldsOne
    }

    /// Adds a connection from `source` unless `limit` connections are registered, or all but
    /// `reserved` are and `source` already holds one (the last slots are kept for other sources).
    func register(_ connection: SignalingConnection, source: String, limit: Int, reserved: Int = 0) -> Result<Void, Refusal> {
        connections.withLock { table in
            let count = table.byClient.count
            guard count < limit else { return .failure(.full) }
            let held = table.bySource[source, default: 0]
            if count >= limit - reserved, held > 0 { return .failure(.sourceHoldsOne) }
            table.byClient[connection.address.client] = (connection, source)
            table.bySource[source] = held + 1
            return .success(())
        }
    }

    /// Removes a connection.
    func unregister(_ client: ClientID) {
        connections.withLock { table in
            guard let (_, source) = table.byClient.removeValue(forKey: client), let held = table.bySource[source] else { return }
            table.bySource[source] = held > 1 ? held - 1 : nil
        }
    }

    /// Connections registered now.
    var count: Int { connections.withLock { $0.byClient.count } }

    /// The connections registered now (for shutdown).
    var registered: [SignalingConnection] { connections.withLock { $0.byClient.values.map(\.connection) } }

    /// Events that found no connection.
    var undeliverableCount: Int { undeliverable.load(ordering: .relaxed) }

    func deliver(_ event: SignalEvent, to address: MemberAddress) {
        if address.node != nodeID, let fanout = remote.withLock({ $0 }) {
            return fanout.send(event, to: address)
        }
        let target = address.node == nodeID ? connections.withLock { $0.byClient[address.client]?.connection } : nil
        guard let target else {
            undeliverable.add(1, ordering: .relaxed)
            return
        }
        target.receive(event)
    }
}
