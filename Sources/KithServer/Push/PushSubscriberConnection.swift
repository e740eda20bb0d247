import Synchronization

/// One subscriber WebSocket on this node: the queue of live messages waiting to be written and
/// the ids already written on it (so a message is not written twice on one connection).
final class PushSubscriberConnection: Sendable {
    let subscriptionID: String
    /// The source address key of the client (the per-source bound).
    let source: String
    private let outbox: AsyncStream<PushMessageRecord>.Continuation
    private let state = Mutex(State())

    struct State {
        var written: Set<String> = []
        var overflowed = false
    }

    /// Ids remembered per connection; past this the memory is cleared (a rare duplicate is harmless: acks are idempotent).
    static let rememberedIDs = 4_096

    init(subscriptionID: String, source: String, outbox: AsyncStream<PushMessageRecord>.Continuation) {
        self.subscriptionID = subscriptionID
        self.source = source
        self.outbox = outbox
    }

    /// Queues a live message, once: a message already queued or written on this connection (offered
    /// again by a notification or a poll) is skipped, so copies cannot fill the queue. A full queue
    /// ends the connection (its messages stay stored).
    func offer(_ message: PushMessageRecord) {
        guard claim(message.id) else { return }
        if case .dropped = outbox.yield(message) {
            state.withLock { $0.overflowed = true }
            outbox.finish()
        }
    }

    /// True when the queue overflowed (the connection is closed as a slow consumer).
    var overflowed: Bool { state.withLock { $0.overflowed } }

    /// Ends the connection (subscription deleted, server stopping).
    func finish() { outbox.finish() }

    /// Records that `id` is queued or about to be written; false when it already was on this connection.
    func claim(_ id: String) -> Bool {
        state.withLock { state in
            if state.written.count >= Self.rememberedIDs { state.written.removeAll(keepingCapacity: true) }
            return state.written.insert(id).inserted
        }
    }
}
