import Foundation
import Hummingbird
import HummingbirdTesting
import KithRendezvous
import KithServer
import NIOCore

/// Servers on an in-memory store and a manual clock, with limits loose enough not to interfere
/// unless a test tightens them.
enum TestServer {
    static func limits() -> RendezvousServerLimits {
        var limits = RendezvousServerLimits()
        limits.requestsPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.guessesPerSource = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.wrongGuessesPerNode = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.acceptsPerCode = RateLimitRule(burst: 10_000, perSecond: 1_000)
        limits.messagesPerConnection = RateLimitRule(burst: 10_000, perSecond: 1_000)
        // Every test client connects from 127.0.0.1: one source.
        limits.connectionsPerSource = 100_000
        return limits
    }

    static func make(
        clock: ManualServerClock = ManualServerClock(), limits: RendezvousServerLimits = TestServer.limits()
    ) throws -> (server: RendezvousServer, store: SQLiteRendezvousStore, clock: ManualServerClock) {
        let store = try SQLiteRendezvousStore.open(path: nil)
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: limits, nodeID: "test-node")
        return (RendezvousServer(configuration: configuration, store: store, clock: clock), store, clock)
    }
}

/// One REST answer, decoded for assertions.
struct RESTAnswer {
    let status: Int
    let text: String
    let headers: HTTPFields

    /// The body as the server's JSON object.
    var json: [String: String] {
        guard let object = try? RendezvousJSON.parseObject(Array(text.utf8), limits: RendezvousJSON.restLimits) else { return [:] }
        var flat: [String: String] = [:]
        for (key, value) in object.members {
            switch value {
            case .string(let text): flat[key] = text
            case .integer(let number): flat[key] = String(number)
            case .bool(let flag): flat[key] = String(flag)
            default: flat[key] = "?"
            }
        }
        return flat
    }
}

extension TestClientProtocol {
    /// Sends `body` (raw text) to `uri`, declared as `contentType` (none when nil or without a body),
    /// and returns the answer.
    func call(_ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil, contentType: String? = "application/json") async throws -> RESTAnswer {
        var headers: HTTPFields = [:]
        if body != nil, let contentType { headers[.contentType] = contentType }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }) { response in
            RESTAnswer(status: Int(response.status.code), text: String(buffer: response.body), headers: response.headers)
        }
    }

    /// Creates a pending pairing and returns its answer.
    func create(_ code: String, _ client1: String, seconds: Int = 300) async throws -> RESTAnswer {
        try await call(.post, "/api/rooms", #"{"joinid":"\#(code)","client1":"\#(client1)","expiresInSeconds":\#(seconds)}"#)
    }

    /// Accepts a join code and returns the answer.
    func accept(_ code: String, _ client2: String) async throws -> RESTAnswer {
        try await call(.post, "/api/rooms/accept", #"{"joinid":"\#(code)","client2":"\#(client2)"}"#)
    }

    /// Checks a pending pairing and returns the answer.
    func check(_ code: String, _ client1: String) async throws -> RESTAnswer {
        try await call(.post, "/api/rooms/check", #"{"joinid":"\#(code)","client1":"\#(client1)"}"#)
    }

    /// Creates and accepts a pairing; returns the room id.
    func pairedRoom(_ code: String = "123456", client1: String = "dev-a", client2: String = "dev-b") async throws -> String {
        _ = try await create(code, client1)
        return try await accept(code, client2).json["roomid"] ?? ""
    }
}
