import NIOCore

/// Tells its owner (a ``RequestDeadlineHandler``) that bytes arrived, before the HTTP decoder sees
/// them, and passes them on untouched: the start of a request's head completes no HTTP part, so
/// only a handler in front of the decoder notices it. Once told to ``discard()``, it drops what
/// arrives instead (the lingering close after a 408).
final class ByteArrivalObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let bytesArrived: () -> Void
    private var discarding = false

    /// An observer calling `bytesArrived` (on the event loop) for each non-empty read.
    init(bytesArrived: @escaping () -> Void) {
        self.bytesArrived = bytesArrived
    }

    /// From now on, bytes are read and dropped: nothing reaches the decoder.
    func discard() { discarding = true }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if discarding { return }
        if unwrapInboundIn(data).readableBytes > 0 { bytesArrived() }
        context.fireChannelRead(data)
    }
}
