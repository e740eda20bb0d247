import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOWebSocket

/// The HTTP/1 server with WebSocket upgrade, each connection guarded by a ``RequestHeadGuard``.
///
/// Before anything else, each accepted connection counts against its source's share
/// (``SourceConnectionCounter``): one beyond it is closed at once, unread.
///
/// A ``SignalingRouteSniffer`` reads each connection's first request head: a WebSocket upgrade of
/// the signaling path is upgraded by NIO and served by a ``SignalingChannelHandler`` (the
/// connection's task ends after the setup); every other connection goes to Hummingbird's
/// pipeline (`base`).
struct GuardedUpgradeChannel: ServerChildChannel {
    /// What a connection became.
    enum Route: Sendable {
        /// Hummingbird serves it.
        case hummingbird(HTTP1WebSocketUpgradeChannel.Value)
        /// A signaling WebSocket on channel handlers: nothing for the connection's task to do.
        case signaling
        /// Refused at accept (its source holds its limit) and closed: nothing to do either.
        case refused
    }

    /// The result of the signaling upgrade negotiation.
    enum SignalingUpgrade: Sendable {
        case upgraded
        case refused
    }

    /// A connection and its route, once its first request head decided it.
    struct Value: ServerChildChannelValue {
        let channel: any Channel
        let route: EventLoopFuture<Route>
    }

    let base: HTTP1WebSocketUpgradeChannel
    let requestHeadTimeout: TimeAmount
    /// Serves the signaling upgrades, on channel handlers.
    let signalingHub: SignalingHub
    /// Open connections by source.
    let connections: SourceConnectionCounter
    let metrics: ServerMetrics

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let source = RendezvousRequestContext.sourceKey(of: channel.remoteAddress)
        guard connections.admit(source) else {
            metrics.connectionRejected(.sourceFull)
            logger.debug("connection refused: its source holds its connection limit")
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(RefusedConnectionCloser())
                return Value(channel: channel, route: channel.eventLoop.makeSucceededFuture(.refused))
            }
        }
        let connections = connections
        channel.closeFuture.whenComplete { _ in connections.release(source) }
        let guarded = channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadGuard(timeout: requestHeadTimeout), position: .first)
        }
        let hub = signalingHub
        let hummingbird = base
        return guarded.flatMapThrowing {
            let route = channel.eventLoop.makePromise(of: Route.self)
            let sniffer = SignalingRouteSniffer { context, decision in
                switch decision {
                case .hummingbird:
                    route.completeWith(hummingbird.setup(channel: context.channel, logger: logger).map { .hummingbird($0) })
                case .notHTTP:
                    route.succeed(.refused)
                case .signaling:
                    do {
                        try Self.configureSignaling(context.channel, hub: hub, logger: logger)
                        route.succeed(.signaling)
                    } catch {
                        route.fail(error)
                        context.close(promise: nil)
                    }
                }
            }
            try channel.pipeline.syncOperations.addHandler(sniffer)
            return Value(channel: channel, route: route.futureResult)
        }
    }

    /// NIO's HTTP/1 decoder and WebSocket upgrader for the signaling path; after the upgrade, a
    /// ``SignalingChannelHandler``. A failed handshake is answered 400 and closed, as Hummingbird does.
    private static func configureSignaling(_ channel: any Channel, hub: SignalingHub, logger: Logger) throws {
        let upgrader = NIOTypedWebSocketServerUpgrader<SignalingUpgrade>(
            maxFrameSize: hub.limits.maximumMessageBytes,
            enableAutomaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SignalingChannelHandler(hub: hub, eventLoop: channel.eventLoop, logger: logger))
                    return .upgraded
                }
            })
        let negotiation = NIOTypedHTTPServerUpgradeConfiguration<SignalingUpgrade>(
            upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.eventLoop.makeCompletedFuture {
                    let head = HTTPResponseHead(
                        version: .http1_1, status: .badRequest, headers: ["connection": "close", "content-length": "0"])
                    channel.write(HTTPServerResponsePart.head(head), promise: nil)
                    channel.writeAndFlush(HTTPServerResponsePart.end(nil)).whenComplete { _ in channel.close(promise: nil) }
                    return .refused
                }
            })
        var configuration = NIOUpgradableHTTPServerPipelineConfiguration(upgradeConfiguration: negotiation)
        configuration.enablePipelining = false
        configuration.enableErrorHandling = false
        let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
        outcome.whenFailure { _ in channel.close(promise: nil) }
    }

    func handle(value: Value, logger: Logger) async {
        guard case .hummingbird(let hummingbird) = try? await value.route.get() else { return }
        await base.handle(value: hummingbird, logger: logger)
    }
}
