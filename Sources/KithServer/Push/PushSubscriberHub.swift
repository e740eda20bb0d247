import Synchronization

/// The subscriber WebSockets open on this node, by subscription: a stored message is offered to
/// every connection of its subscription at once.
final class PushSubscriberHub: Sendable {
    private let connections = Mutex<Table>(Table())
    private let total = Atomic<Int>(0)

    struct Table {
        var bySubscription: [String: [ObjectIdentifier: PushSubscriberConnection]] = [:]
        var bySource: [String: Int] = [:]
    }

    /// Subscriber connections open now.
    var count: Int { total.load(ordering: .relaxed) }

    /// Adds a connection unless the node holds `limits.maximumSubscribers` already, its subscription
    /// holds `subscribersPerSubscription`, or its source `subscribersPerSource` (one stranger must not
    /// take every slot with one free subscription).
    /// Whether a connection of `subscriptionID` from `source` would be added now: checked before the WebSocket
    /// upgrade, so a client over a bound gets an HTTP refusal at once instead of an upgrade followed by a close
    /// frame (which a client still switching its pipeline can miss). ``add(_:limits:)`` decides again after the
    /// upgrade, for connections that raced each other.
    func admits(subscriptionID: String, source: String, limits: PushServerLimits) -> Bool {
        connections.withLock { table in
            total.load(ordering: .relaxed) < limits.maximumSubscribers
                && table.bySubscription[subscriptionID, default: [:]].count < limits.subscribersPerSubscription
                && table.bySource[source, default: 0] < limits.subscribersPerSource
        }
    }

    func add(_ connection: PushSubscriberConnection, limits: PushServerLimits) -> Bool {
        connections.withLock { table in
            guard total.load(ordering: .relaxed) < limits.maximumSubscribers,
                  table.bySubscription[connection.subscriptionID, default: [:]].count < limits.subscribersPerSubscription,
                  table.bySource[connection.source, default: 0] < limits.subscribersPerSource else { return false }
            table.bySubscription[connection.subscriptionID, default: [:]][ObjectIdentifier(connection)] = connection
            table.bySource[connection.source, default: 0] += 1
            total.wrappingAdd(1, ordering: .relaxed)
            return true
        }
    }

    func remove(_ connection: PushSubscriberConnection) {
        connections.withLock { table in
            guard table.bySubscription[connection.subscriptionID]?.removeValue(forKey: ObjectIdentifier(connection)) != nil else { return }
            if table.bySubscription[connection.subscriptionID]?.isEmpty == true { table.bySubscription[connection.subscriptionID] = nil }
            table.bySource[connection.source, default: 1] -= 1
            if table.bySource[connection.source] == 0 { table.bySource[connection.source] = nil }
            total.wrappingSubtract(1, ordering: .relaxed)
        }
    }

    /// Offers `message` to every connection of its subscription on this node; answers how many there were.
    @discardableResult
    func offer(_ message: PushMessageRecord) -> Int {
        let targets = connections.withLock { Array(($0.bySubscription[message.subscriptionID] ?? [:]).values) }
        for connection in targets { connection.offer(message) }
        return targets.count
    }

    /// The connections of a subscription on this node.
    func connections(of subscriptionID: String) -> [PushSubscriberConnection] {
        connections.withLock { Array(($0.bySubscription[subscriptionID] ?? [:]).values) }
    }

    /// Ends every connection of a subscription (it was deleted).
    func finishAll(subscriptionID: String) {
        let targets = connections.withLock { Array(($0.bySubscription[subscriptionID] ?? [:]).values) }
        for connection in targets { connection.finish() }
    }

    /// Ends every connection (shutdown).
    func finishAll() {
        let targets = connections.withLock { $0.bySubscription.values.flatMap(\.values) }
        for connection in targets { connection.finish() }
    }
}
