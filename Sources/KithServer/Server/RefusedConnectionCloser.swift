import NIOCore

/// The only handler of a connection refused at accept (its source holds its connection limit):
/// closes it as soon as it is active and drops anything it sent unread.
final class RefusedConnectionCloser: ChannelInboundHandler {
    typealias InboundIn = NIOAny

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { context.close(promise: nil) }
    }

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
