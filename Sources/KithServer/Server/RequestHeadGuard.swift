import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Guards a connection between accept and its first request: Hummingbird's HTTP/1 handlers (idle
/// timeout, graceful-shutdown quiescing) join the pipeline only once the WebSocket upgrade
/// negotiation has seen a whole request head. Until then this handler closes the connection when
/// the head is late (``RendezvousServerLimits/requestHeadTimeout``) or the server shuts down; at
/// that deadline a connection past its negotiation keeps going and the guard leaves the pipeline.
final class RequestHeadGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // A plain pass-through: looking the upgrade handler up on every read cost the relay about a
        // tenth of its throughput. The guard leaves the pipeline when its deadline fires.
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent, Self.negotiating(context) {
            // Nothing downstream handles quiescing yet: this connection would keep the shutdown waiting.
            Self.abandon(context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let context = loopBound.value
            if Self.negotiating(context) {
                Self.abandon(context)
            } else {
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            }
        }
    }

    /// Ends a negotiation that has no request to finish: told that input ended, the upgrade handler
    /// closes the connection and ends the negotiation quietly (an outright close is logged as an error).
    private static func abandon(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        context.close(promise: nil)
    }

    /// Whether the connection still waits for a request head: the route sniffer or an upgrade
    /// negotiation (Hummingbird's or the signaling one) is still in the pipeline.
    private static func negotiating(_ context: ChannelHandlerContext) -> Bool {
        let pipeline = context.pipeline.syncOperations
        return (try? pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)) != nil
            || (try? pipeline.handler(type: SignalingRouteSniffer.self)) != nil
            || (try? pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<GuardedUpgradeChannel.SignalingUpgrade>.self)) != nil
    }
}

