import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Bounds the time an HTTP request takes to arrive whole: a request whose head and body have not
/// both arrived within ``RendezvousServerLimits/requestTimeout`` is answered `408 Request Timeout`
/// (when no response is under way) and its connection closed.
///
/// Hummingbird's idle timeout counts silence only, and the ``RequestHeadGuard`` only the first
/// head: a body (or a later keep-alive request's head) trickled a byte every few seconds would
/// otherwise hold the connection forever. The clock starts at the first bytes of a request: bytes
/// read while no request is under way (seen by a ``ByteArrivalObserver`` this handler puts in front
/// of the HTTP decoder), or the head itself (a connection's first request, whose head arrived
/// before this handler joined the pipeline). It stops at the request's end; the response's own
/// time is not bounded.
///
/// Installed in Hummingbird's HTTP/1 pipeline (`additionalChannelHandlers`, after the HTTP codec),
/// so never on an upgraded WebSocket (nor its observer).
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var observer: ByteArrivalObserver?
    /// A request's head arrived and its end not yet.
    private var receiving = false
    /// Request heads read and response ends written: a request is answered when they match.
    private var requestsRead = 0
    private var responsesEnded = 0
    /// A response head was written and its end not yet.
    private var responding = false
    /// Called once when the deadline closes a connection (for metrics).
    private let onTimeout: @Sendable () -> Void

    /// A handler giving each request `timeout` to arrive.
    init(timeout: TimeAmount, onTimeout: @escaping @Sendable () -> Void = {}) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let pipeline = context.pipeline.syncOperations
        guard let decoder = try? pipeline.context(handlerType: ByteToMessageHandler<HTTPRequestDecoder>.self) else { return }
        let observer = ByteArrivalObserver {
            // Bytes while no request is under way: the next request has begun.
            if !self.receiving { self.arm(context) }
        }
        guard (try? pipeline.addHandler(observer, position: .before(decoder.handler))) != nil else { return }
        self.observer = observer
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        if let observer {
            self.observer = nil
            context.pipeline.syncOperations.removeHandler(observer, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            receiving = true
            requestsRead += 1
            arm(context)
        case .body:
            break
        case .end:
            receiving = false
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status.kind != .informational:
            responding = true
        case .end:
            responding = false
            responsesEnded += 1
        case .head, .body:
            break
        }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard deadline == nil else { return }
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            handler.value.expire(loopContext.value)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }

    /// Closes after a 408 so that the client reads it: a close while the client is still sending makes
    /// the kernel answer its next bytes with a reset, which can discard the 408 before the client read
    /// it. So the output is shut (the client sees the end after the 408), what still arrives is read
    /// and dropped, and the connection closes when the client closes or ``lingerTime`` later.
    private func lingeringClose(_ context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        observer?.discard()
        let loopContext = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.close(mode: .output).assumeIsolated().whenComplete { result in
            if case .failure = result { loopContext.value.close(promise: nil) }
        }
        context.eventLoop.scheduleTask(in: Self.lingerTime) { loopContext.value.close(promise: nil) }
    }

    /// How long a connection answered 408 stays open for reading only.
    static let lingerTime: TimeAmount = .seconds(2)

    /// The request is late: answer 408 when every earlier request is answered and no response is
    /// half written (otherwise the 408 would be taken for an earlier request's answer, or cut
    /// into one), then close.
    private func expire(_ context: ChannelHandlerContext) {
        deadline = nil
        guard context.channel.isActive else { return }
        onTimeout()
        // The late request counts among those read once its head arrived.
        let earlierUnanswered = requestsRead - responsesEnded - (receiving ? 1 : 0)
        if !responding, earlierUnanswered == 0 {
            let head = HTTPResponse(status: .requestTimeout, headerFields: [.connection: "close", .contentLength: "0"])
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
                self.lingeringClose(context)
            }
        } else {
            context.close(promise: nil)
        }
    }
}
