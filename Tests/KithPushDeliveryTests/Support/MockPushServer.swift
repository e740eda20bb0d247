import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// One request as the mock server saw it.
struct RecordedRequest: Sendable {
    let method: String
    let uri: String
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    /// 2 for HTTP/2, 1 for HTTP/1.x.
    let httpMajorVersion: Int

    /// The first value of a header, case-insensitively.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The number of values of a header.
    func headerCount(_ name: String) -> Int {
        headers.filter { $0.name.lowercased() == name.lowercased() }.count
    }
}

/// What the mock answers.
struct MockResponse: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// Never answer (to test timeouts).
    var silent = false

    static func status(_ status: Int, json: String? = nil, headers: [(String, String)] = []) -> MockResponse {
        var all = headers
        if json != nil { all.append(("content-type", "application/json")) }
        return MockResponse(status: status, headers: all, body: Array((json ?? "").utf8))
    }

    static let silence = MockResponse(status: 0, silent: true)
}

/// A loopback HTTP server for provider tests: HTTP/2 over TLS (ALPN h2 only, like APNs) or plain HTTP/1.1
/// (like a Web Push service on loopback). It records every request and answers through `respond`.
final class MockPushServer: Sendable {
    enum Mode: Sendable {
        case http1
        case http2TLS
    }

    let port: Int
    let mode: Mode
    private let channel: any Channel
    private let recorder: Recorder

    private init(port: Int, mode: Mode, channel: any Channel, recorder: Recorder) {
        self.port = port
        self.mode = mode
        self.channel = channel
        self.recorder = recorder
    }

    /// `https://127.0.0.1:<port>` or `http://127.0.0.1:<port>`.
    var baseURL: String { "\(mode == .http2TLS ? "https" : "http")://127.0.0.1:\(port)" }

    /// Every request received so far.
    var requests: [RecordedRequest] { recorder.requests.withLock { $0 } }

    static func start(_ mode: Mode, respond: @escaping @Sendable (RecordedRequest) -> MockResponse) async throws -> MockPushServer {
        let recorder = Recorder()
        let sslContext: NIOSSLContext? = mode == .http2TLS ? try NIOSSLContext(configuration: MockTLS.serverConfiguration()) : nil
        let record: @Sendable (RecordedRequest) -> MockResponse = { request in
            recorder.requests.withLock { $0.append(request) }
            return respond(request)
        }
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let sslContext {
                        try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                        _ = try pipeline.configureHTTP2Pipeline(
                            mode: .server, connectionConfiguration: .init(), streamConfiguration: .init()
                        ) { stream in
                            stream.eventLoop.makeCompletedFuture {
                                try stream.pipeline.syncOperations.addHandler(HTTP2FramePayloadToHTTP1ServerCodec())
                                try stream.pipeline.syncOperations.addHandler(MockRequestHandler(respond: record))
                            }
                        }
                    } else {
                        try pipeline.configureHTTPServerPipeline()
                        try pipeline.addHandler(MockRequestHandler(respond: record))
                    }
                }
            }
        let channel = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw MockServerError.noPort }
        return MockPushServer(port: port, mode: mode, channel: channel, recorder: recorder)
    }

    func shutdown() async {
        try? await channel.close()
    }
}

enum MockServerError: Error {
    case noPort
}

/// Shared storage for the recorded requests (the server and its handlers write, the test reads).
final class Recorder: Sendable {
    let requests = Mutex<[RecordedRequest]>([])
}

/// Collects one request and writes the mock's response.
final class MockRequestHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let respond: @Sendable (RecordedRequest) -> MockResponse
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(respond: @escaping @Sendable (RecordedRequest) -> MockResponse) {
        self.respond = respond
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case let .head(requestHead):
            head = requestHead
            body = []
        case var .body(buffer):
            body += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            self.head = nil
            let request = RecordedRequest(
                method: head.method.rawValue, uri: head.uri,
                headers: head.headers.map { (name: $0.name, value: $0.value) }, body: body,
                httpMajorVersion: head.version.major
            )
            let response = respond(request)
            guard !response.silent else { return }
            var headers = HTTPHeaders(response.headers)
            headers.replaceOrAdd(name: "content-length", value: String(response.body.count))
            let responseHead = HTTPResponseHead(version: head.version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
            context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
            if !response.body.isEmpty {
                context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }
}
