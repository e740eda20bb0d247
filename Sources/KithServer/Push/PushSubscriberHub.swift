import Synchronization

/// The subscriber WebSockets open on this node, by subscription: a stored message is offered to
/// every connection of its subscription at once.
final class PushSubscriberHub: Sendable {
    private let connections = Mutex<[String: [ObjectIdentifier: PushSubscriberConnection]]>([:])
    private let total = Atomic<Int>(0)

    /// Subscriber connections open now.
    var count: Int { total.load(ordering: .relaxed) }

    /// Adds a connection unless the node holds `maximum` already.
    func add(_ connection: PushSubscriberConnection, maximum: Int) -> Bool {
        connections.withLock { table in
            guard total.load(ordering: .relaxed) < maximum else { return false }
            table[connection.subscriptionID, default: [:]][ObjectIdentifier(connection)] = connection
            total.wrappingAdd(1, ordering: .relaxed)
            return true
        }
    }

    func remove(_ connection: PushSubscriberConnection) {
        connections.withLock { table in
            guard table[connection.subscriptionID]?.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            if table[connection.subscriptionID]?.isEmpty == true { table[connection.subscriptionID] = nil }
            total.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    /// Offers `message` to every connection of its subscription on this node; answers how many there were.
    @discardableResult
    func offer(_ message: PushMessageRecord) -> Int {
        let targets = connections.withLock { Array(($0[message.subscriptionID] ?? [:]).values) }
        for connection in targets { connection.offer(message) }
        return targets.count
    }

    /// The connections of a subscription on this node.
    func connections(of subscriptionID: String) -> [PushSubscriberConnection] {
        connections.withLock { Array(($0[subscriptionID] ?? [:]).values) }
    }

    /// Ends every connection of a subscription (it was deleted).
    func finishAll(subscriptionID: String) {
        let targets = connections.withLock { Array(($0[subscriptionID] ?? [:]).values) }
        for connection in targets { connection.finish() }
    }

    /// Ends every connection (shutdown).
    func finishAll() {
        let targets = connections.withLock { $0.values.flatMap(\.values) }
        for connection in targets { connection.finish() }
    }
}
