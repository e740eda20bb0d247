import NIOCore

/// Splits the TCP byte stream into link frames (`length u16 | frame`) and hands them to a
/// ``TCPFrameInbox``. A length of 0 or above the MTU closes the connection, and so does a read
/// idle event (nothing received for ``SyncLimits/tcpIdleTimeoutSeconds``).
final class TCPFrameHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let inbox: TCPFrameInbox
    private let mtu: Int
    private var buffered: ByteBuffer?

    init(inbox: TCPFrameInbox, mtu: Int) {
        self.inbox = inbox
        self.mtu = mtu
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        if var existing = buffered {
            existing.writeBuffer(&incoming)
            buffered = existing
        } else {
            buffered = incoming
        }
        guard var buffer = buffered else { return }
        var pause = false
        while let length = buffer.getInteger(at: buffer.readerIndex, as: UInt16.self) {
            guard length > 0, Int(length) <= mtu else {
                inbox.finish(.invalidFrameLength(Int(length), mtu: mtu))
                buffered = nil
                context.close(promise: nil)
                return
            }
            guard buffer.readableBytes >= SyncLimits.tcpLengthPrefixLength + Int(length) else { break }
            buffer.moveReaderIndex(forwardBy: SyncLimits.tcpLengthPrefixLength)
            guard let frame = buffer.readBytes(length: Int(length)) else { break }
            if inbox.deliver(frame) { pause = true }
        }
        buffer.discardReadBytes()
        buffered = buffer.readableBytes > 0 ? buffer : nil
        if pause { context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // From the `IdleStateHandler` in front: nothing was read for the idle timeout.
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read {
            inbox.finish(.idleTimeout)
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.finish(.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        inbox.finish(.disconnected)
        context.close(promise: nil)
    }
}
