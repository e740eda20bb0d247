import NIOCore

/// Where a signaling connection's outgoing frames go: the writer task's stream (Hummingbird's
/// task-per-WebSocket path) or the connection's NIO channel (``SignalingChannelHandler``).
///
/// ``SignalingConnection`` calls both methods under its lock, in the order the frames must be
/// written.
protocol SignalingOutbox: Sendable {
    /// Queues `frame` for writing; false when it could not be queued.
    func push(_ frame: SignalingOutbound) -> Bool

    /// No more frames: the connection is over, or the server closes it
    /// (``SignalingConnection/closeReason``).
    func finish()
}

/// The outbox of a connection served by a task: an `AsyncStream` its writer task drains.
struct StreamSignalingOutbox: SignalingOutbox {
    let continuation: AsyncStream<SignalingOutbound>.Continuation

    func push(_ frame: SignalingOutbound) -> Bool {
        if case .dropped = continuation.yield(frame) { return false }
        return true
    }

    func finish() { continuation.finish() }
}
