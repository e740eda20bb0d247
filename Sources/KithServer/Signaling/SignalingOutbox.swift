import NIOCore

/// Where a signaling connection's outgoing frames go: the connection's NIO channel
/// (``ChannelSignalingOutbox``, written by ``SignalingChannelHandler``), or a test's stream.
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
