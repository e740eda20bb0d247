import NIOCore

/// Decides, from a connection's first request head, whether it is a signaling WebSocket upgrade
/// (served by NIO channel handlers, ``SignalingChannelHandler``) or anything else (Hummingbird's
/// HTTP/1 and WebSocket pipeline), then installs that pipeline behind itself, passes the bytes it
/// held on and leaves.
///
/// It holds at most ``maximumHeadBytes``: a longer head goes to Hummingbird, whose own limits
/// answer it. The ``RequestHeadGuard`` in front bounds the time. Bytes that cannot begin an HTTP/1
/// request (a TLS ClientHello, binary noise, a request line without `HTTP/1.x`) are answered
/// `400 Bad Request` and the connection closed at once, instead of being held until the head timeout.
final class SignalingRouteSniffer: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// Which pipeline serves the connection.
    enum Route: Equatable {
        /// `GET` of the signaling path asking for `Upgrade: websocket`.
        case signaling
        /// Everything else.
        case hummingbird
        /// Bytes that are not an HTTP/1 request: the sniffer answers 400 and closes; nothing is installed.
        case notHTTP
    }

    /// Bytes held at most while looking for the end of the head.
    static let maximumHeadBytes = 16 * 1_024

    private let install: (ChannelHandlerContext, Route) -> Void
    private var held: ByteBuffer?
    private var decided = false

    /// `install` sets up the chosen pipeline after this handler (synchronously, on the event loop).
    init(install: @escaping (ChannelHandlerContext, Route) -> Void) {
        self.install = install
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !decided else { return context.fireChannelRead(data) }
        var bytes = unwrapInboundIn(data)
        if held == nil {
            held = bytes
        } else {
            held?.writeBuffer(&bytes)
        }
        guard let head = held else { return }
        let view = head.readableBytesView
        if Self.cannotBeginRequest(view) {
            refuse(context: context)
        } else if let end = Self.endOfHead(view) {
            let requestHead = view[view.startIndex..<end]
            guard Self.hasHTTP1RequestLine(requestHead) else { return refuse(context: context) }
            decide(Self.route(ofHead: requestHead), context: context)
        } else if head.readableBytes > Self.maximumHeadBytes {
            decide(.hummingbird, context: context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if decided { context.fireChannelReadComplete() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Input ended, or the request-head guard gives up: Hummingbird's negotiation ends it quietly.
        if !decided { decide(.hummingbird, context: context) }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !decided { decide(.hummingbird, context: context) }
        context.fireChannelInactive()
    }

    private func decide(_ route: Route, context: ChannelHandlerContext) {
        decided = true
        install(context, route)
        if let held {
            self.held = nil
            context.fireChannelRead(wrapInboundOut(held))
            context.fireChannelReadComplete()
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// Answers `400 Bad Request` to bytes that are not an HTTP/1 request and closes the connection.
    private func refuse(context: ChannelHandlerContext) {
        decided = true
        held = nil
        install(context, .notHTTP)
        let answer = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
        context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: answer)), promise: nil)
        context.close(promise: nil)
    }

    /// Longest method token accepted while the first space has not arrived (the longest registered methods are
    /// under 20 characters).
    static let maximumMethodBytes = 20

    /// Whether the bytes so far cannot begin a request line: after optional empty lines (RFC 9112 §2.2), a
    /// method of token characters and a space.
    static func cannotBeginRequest(_ bytes: ByteBufferView) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex, bytes[index] == 0x0D || bytes[index] == 0x0A { index += 1 }
        var methodBytes = 0
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == 0x20 { return methodBytes == 0 }
            guard isTokenByte(byte) else { return true }
            methodBytes += 1
            if methodBytes > maximumMethodBytes { return true }
            index += 1
        }
        return false
    }

    /// Whether a whole head's first line is `method SP target SP HTTP/1.x`.
    static func hasHTTP1RequestLine(_ head: ByteBufferView.SubSequence) -> Bool {
        let text = String(decoding: head, as: UTF8.self)
        guard let line = text.split(separator: "\r\n", omittingEmptySubsequences: true).first else { return false }
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        return parts.count == 3 && !parts[1].isEmpty && parts[2].hasPrefix("HTTP/1.")
    }

    /// An RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// The index just past the blank line ending a request head, if it arrived.
    static func endOfHead(_ bytes: ByteBufferView) -> ByteBufferView.Index? {
        guard bytes.count >= 4 else { return nil }
        var index = bytes.startIndex
        let last = bytes.endIndex - 4
        while index <= last {
            if bytes[index] == 0x0D, bytes[index + 1] == 0x0A, bytes[index + 2] == 0x0D, bytes[index + 3] == 0x0A {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// Signaling when the head is `GET / HTTP/1.1` (a query allowed) with an `Upgrade` header
    /// naming `websocket`; NIO's upgrader then checks the rest of the handshake.
    static func route(ofHead head: ByteBufferView.SubSequence) -> Route {
        let text = String(decoding: head, as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: true).makeIterator()
        guard let requestLine = lines.next() else { return .hummingbird }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "GET", parts[2] == "HTTP/1.1" else { return .hummingbird }
        let path = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard path == "/" else { return .hummingbird }
        while let line = lines.next() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            guard line[..<colon].lowercased() == "upgrade" else { continue }
            let value = line[line.index(after: colon)...].lowercased()
            if value.split(separator: ",").contains(where: { $0.filter { !$0.isWhitespace } == "websocket" }) {
                return .signaling
            }
        }
        return .hummingbird
    }
}
