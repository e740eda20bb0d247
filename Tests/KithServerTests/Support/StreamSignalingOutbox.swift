@testable import KithServer

/// A signaling outbox that queues frames into an `AsyncStream` a test reads, in place of a
/// connection's NIO channel.
struct StreamSignalingOutbox: SignalingOutbox {
    let continuation: AsyncStream<SignalingOutbound>.Continuation

    func push(_ frame: SignalingOutbound) -> Bool {
        if case .dropped = continuation.yield(frame) { return false }
        return true
    }

    func finish() { continuation.finish() }
}
