import Logging
import NIOCore
import NIOWebSocket

/// One signaling WebSocket served by channel handlers, with no task of its own: it reads frames,
/// answers RFC 6455 pings, sends the server's pings (a peer silent for a whole ping interval is
/// cut off), assembles messages, runs the signaling protocol through the ``SignalingHub`` and
/// writes what the connection's ``ChannelSignalingOutbox`` collects.
///
/// Messages that need the store (`join_room`, `leave_room`) run in a short task; until it ends
/// the handler holds later messages and stops reading (TCP slows the client), as it does while a
/// relay frame waits for its connection's byte or frame budget.
///
/// Installed by ``GuardedUpgradeChannel`` after NIO's WebSocket upgrade, after NIO's frame
/// decoder, encoder and protocol error handler (malformed or oversize frames: close 1002/1009).
final class SignalingChannelHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// One whole inbound data message.
    enum InboundMessage {
        case text(ByteBuffer)
        case binary(ByteBuffer)
    }

    /// Most messages held while the connection waits for the store or relay budget; a client
    /// that pipelines more is closed like one over the rate (1008).
    static let maximumHeldMessages = 1_024

    private let hub: SignalingHub
    private let logger: Logger
    private let outbox: ChannelSignalingOutbox
    private var context: ChannelHandlerContext?
    private var connection: SignalingConnection?

    private var assembling: (binary: Bool, data: ByteBuffer)?
    private var held = CircularBuffer<InboundMessage>()
    private var busy = false
    private var readHeld = false

    private var closeSent = false
    private var closeDeadline: Scheduled<Void>?
    private var refusal: Scheduled<Void>?
    private var pinger: RepeatedTask?
    private var awaitedPong: ByteBuffer?

    init(hub: SignalingHub, eventLoop: any EventLoop, logger: Logger) {
        self.hub = hub
        self.logger = logger
        outbox = ChannelSignalingOutbox(eventLoop: eventLoop)
    }

    private var loopBound: NIOLoopBound<SignalingChannelHandler>? {
        context.map { NIOLoopBound(self, eventLoop: $0.eventLoop) }
    }

    // MARK: Life cycle

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        outbox.attach(bound)
        switch hub.admitConnection(outbox: outbox, source: RendezvousRequestContext.sourceKey(of: context.channel.remoteAddress), logger: logger) {
        case .accepted(let connection):
            self.connection = connection
        case .refused(let reason):
            // Give the client time to switch to WebSocket before the close frame (see
            // `WebSocketOutboundWriter.refusalGrace`).
            refusal = context.eventLoop.scheduleTask(in: TimeAmount(SignalingHub.refusalGrace)) {
                bound.value.sendClose(code: reason.code, reason: reason.text)
            }
        }
        let interval = TimeAmount(hub.limits.pingInterval)
        if interval > .zero {
            pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                bound.value.autoPing()
            }
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        tearDown()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        tearDown()
        context.fireChannelInactive()
    }

    /// The connection is over: stop the timers, forget it on the bus, leave its room.
    private func tearDown() {
        pinger?.cancel()
        pinger = nil
        closeDeadline?.cancel()
        closeDeadline = nil
        refusal?.cancel()
        refusal = nil
        held.removeAll()
        outbox.detach()
        if let connection {
            self.connection = nil
            connection.finish()
            hub.connectionEnded(connection, logger: logger)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // NIO's WebSocketProtocolErrorHandler sends the close frame for a bad frame and then closes.
        if error is NIOWebSocketError {
            closeSent = true
            hub.metrics.signalingRejected(.frameRejected)
            return
        }
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is ChannelShouldQuiesceEvent {
            // The listener stops (graceful shutdown): a peer still here gets a normal close.
            sendClose(code: 1000, reason: nil)
            return
        }
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Reading

    func read(context: ChannelHandlerContext) {
        if busy {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .connectionClose: receivedClose(frame, context: context)
        case .ping: receivedPing(frame, context: context)
        case .pong:
            if frame.fin, let awaited = awaitedPong, frame.unmaskedData == awaited { awaitedPong = nil }
        case .text, .binary:
            guard assembling == nil, !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return failConnection(code: 1002) }
            if frame.fin {
                deliver(frame.opcode == .binary ? .binary(frame.unmaskedData) : .text(frame.unmaskedData))
            } else {
                assembling = (frame.opcode == .binary, frame.unmaskedData)
            }
        case .continuation:
            guard let (binary, assembled) = assembling, !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return failConnection(code: 1002) }
            var data = assembled
            var part = frame.unmaskedData
            guard data.readableBytes + part.readableBytes <= hub.limits.maximumMessageBytes else {
                assembling = nil
                return failConnection(code: 1009)
            }
            assembling = nil
            data.writeBuffer(&part)
            if frame.fin {
                deliver(binary ? .binary(data) : .text(data))
            } else {
                assembling = (binary, data)
            }
        default:
            failConnection(code: 1002)
        }
    }

    private func receivedPing(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        let data = frame.unmaskedData
        guard frame.fin, data.readableBytes < 126 else { return failConnection(code: 1002) }
        guard !closeSent else { return }
        if let connection, !hub.admitPing(on: connection) { return }
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: data)), promise: nil)
    }

    /// The client closes (or answers the server's close): answer once, then end the connection.
    private func receivedClose(_ frame: WebSocketFrame, context: ChannelHandlerContext) {
        guard !closeSent else {
            context.close(promise: nil)
            return
        }
        closeSent = true
        var data = frame.unmaskedData
        let code: UInt16
        if data.readableBytes == 0 {
            code = 1000
        } else if let received = data.readInteger(as: UInt16.self) {
            code = Self.acceptableCloseCodes.contains(received) || (3000...4999).contains(received) ? 1000 : 1002
        } else {
            code = 1002
        }
        let written = context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code: code, reason: nil, allocator: context.channel.allocator)))
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.whenComplete { _ in bound.value.close(promise: nil) }
    }

    /// The codes a close frame may carry (RFC 6455 section 7.4.1) below the library range.
    private static let acceptableCloseCodes: Set<UInt16> = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011]

    /// A protocol violation: close with `code` and count the frame as rejected.
    private func failConnection(code: UInt16) {
        guard !closeSent else { return }
        hub.metrics.signalingRejected(.frameRejected)
        sendClose(code: code, reason: nil)
    }

    private func deliver(_ message: InboundMessage) {
        guard !busy else {
            held.append(message)
            if held.count > Self.maximumHeldMessages {
                held.removeAll()
                hub.metrics.signalingRejected(.rateLimit)
                connection?.requestClose(.rateLimit)
            }
            return
        }
        process(message)
    }

    /// Runs one message; sets `busy` when it must wait (store, relay budget).
    private func process(_ message: InboundMessage) {
        // Once the server decided to close, drain until the client answers the close frame.
        guard let connection, !closeSent, connection.closeReason == nil else { return }
        if case .binary(let frame) = message, connection.inRelayMode {
            guard hub.admitRelayFrame(frame, from: connection) else { return }
            return forwardRelay(frame, from: connection, delayed: false)
        }
        let bytes: [UInt8] = switch message {
        case .text(let buffer), .binary(let buffer): Array(buffer.readableBytesView)
        }
        guard let decoded = hub.admitMessage(bytes, on: connection), !hub.handleAtOnce(decoded, on: connection) else { return }
        guard let context, let bound = loopBound else { return }
        busy = true
        let hub = hub
        let eventLoop = context.eventLoop
        Task {
            await hub.handle(decoded, on: connection)
            eventLoop.execute { bound.value.resume() }
        }
    }

    /// Takes relay budget for `frame` and hands it to the peer, or waits (reading paused) and tries again.
    private func forwardRelay(_ frame: ByteBuffer, from connection: SignalingConnection, delayed: Bool) {
        let wait = connection.takeRelayBudget(bytes: frame.readableBytes, now: hub.clock.nowMilliseconds())
        guard wait > 0 else { return hub.deliverRelayFrame(frame, from: connection) }
        if !delayed { hub.relayStatistics.recordDelay() }
        guard let context, let bound = loopBound else { return }
        busy = true
        context.eventLoop.scheduleTask(in: .milliseconds(min(wait, 50))) {
            bound.value.retryRelay(frame)
        }
    }

    private func retryRelay(_ frame: ByteBuffer) {
        busy = false
        guard let connection, !closeSent else { return }
        forwardRelay(frame, from: connection, delayed: true)
        if !busy { resume() }
    }

    /// The message that waited is done: run the held ones, then read again.
    private func resume() {
        busy = false
        while !busy, let next = held.popFirst() {
            process(next)
        }
        if !busy, readHeld, let context {
            readHeld = false
            context.read()
        }
    }

    // MARK: Writing

    /// Writes what the outbox collected, one flush for the batch; sends the close frame once the
    /// server closes the connection.
    func drainOutbox() {
        guard let context else { return }
        let (frames, finished) = outbox.take()
        if !frames.isEmpty, !closeSent {
            var messages = 0
            var relayFrames = 0
            var relayBytes = 0
            let promise = context.eventLoop.makePromise(of: Void.self)
            for (index, frame) in frames.enumerated() {
                let webSocketFrame: WebSocketFrame
                switch frame {
                case .message(let message):
                    messages += 1
                    webSocketFrame = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: message.text))
                case .relay(let bytes):
                    relayFrames += 1
                    relayBytes += bytes.readableBytes
                    webSocketFrame = WebSocketFrame(fin: true, opcode: .binary, data: bytes)
                }
                context.write(wrapOutboundOut(webSocketFrame), promise: index == frames.count - 1 ? promise : nil)
            }
            context.flush()
            if let connection {
                let (messages, relayFrames, relayBytes) = (messages, relayFrames, relayBytes)
                promise.futureResult.whenSuccess { _ in
                    connection.written(messages: messages, relayFrames: relayFrames, relayBytes: relayBytes)
                }
            }
        }
        if finished, let reason = connection?.closeReason {
            sendClose(code: reason.code, reason: reason.text)
        }
    }

    /// Sends the server's close frame once; the client has ``SignalingHub/closeGrace`` to answer.
    func sendClose(code: UInt16, reason: String?) {
        guard let context, !closeSent else { return }
        closeSent = true
        context.writeAndFlush(wrapOutboundOut(Self.closeFrame(code: code, reason: reason, allocator: context.channel.allocator)), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        closeDeadline = context.eventLoop.scheduleTask(in: TimeAmount(SignalingHub.closeGrace)) {
            bound.value.close(promise: nil)
        }
    }

    /// The server's ping: a peer that did not answer the previous one within the interval is cut off.
    private func autoPing() {
        guard let context, !closeSent else { return }
        guard awaitedPong == nil else {
            sendClose(code: 1001, reason: "Ping timeout")
            context.close(promise: nil)
            return
        }
        var data = context.channel.allocator.buffer(capacity: 16)
        for _ in 0..<2 { data.writeInteger(UInt64.random(in: .min ... .max)) }
        awaitedPong = data
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: data)), promise: nil)
    }

    static func closeFrame(code: UInt16, reason: String?, allocator: ByteBufferAllocator) -> WebSocketFrame {
        var data = allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.writeInteger(code)
        if let reason { data.writeString(reason) }
        return WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    }
}
