import Foundation
import KithServer
import NIOCore
import NIOPosix
import Testing

/// A request must arrive whole in time: Hummingbird's idle timeout counts silence only, so a body
/// (or a later request's head) trickled a byte at a time would hold its connection forever.
@Suite("Whole-request deadline")
struct RequestDeadlineTests {
    typealias RawConnection = RequestHeadGuardTests.RawConnection

    static func server(requestTimeout: Duration) throws -> RendezvousServer {
        var limits = TestServer.limits()
        limits.requestTimeout = requestTimeout
        let configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: limits, nodeID: "test-node")
        return RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil))
    }

    /// Writes `prefix`; once the server has answered `answersFirst` requests (a keep-alive client
    /// sends its next request after the answer), writes `trickle` one byte every `interval`
    /// (repeating it) until the server closes the connection; returns what the server sent, or nil
    /// if it had not closed after `seconds`.
    static func trickled(
        port: Int, prefix: String, trickle: String, answersFirst: Int, interval: Duration = .milliseconds(250), seconds: Double = 45
    ) async throws -> String? {
        let connection = try await RawConnection.open(port: port)
        return try await connection.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: prefix))
            return try await RawConnection.within(seconds) {
                var received = ""
                var writer: Task<Void, any Error>?
                defer { writer?.cancel() }
                func startTrickling() {
                    writer = Task {
                        var index = trickle.startIndex
                        while !Task.isCancelled {
                            try await Task.sleep(for: interval)
                            try await outbound.write(ByteBuffer(string: String(trickle[index])))
                            index = trickle.index(after: index)
                            if index == trickle.endIndex { index = trickle.startIndex }
                        }
                    }
                }
                if answersFirst == 0 { startTrickling() }
                do {
                    for try await buffer in inbound {
                        received += String(buffer: buffer)
                        if writer == nil, received.components(separatedBy: "HTTP/1.1 ").count - 1 >= answersFirst { startTrickling() }
                    }
                } catch {
                    // A reset after the server's answer still ends the connection.
                }
                return received
            }
        }
    }

    /// What a trickling client sends: `prefix` at once, then `trickle` a byte at a time.
    struct Trickle: Sendable, CustomStringConvertible {
        let description: String
        let prefix: String
        let trickle: String
        /// Answers the client waits for before it starts trickling.
        var answersFirst = 0
    }

    static let trickles = [
        // 10,000 bytes at 4 a second would take 40 minutes; the deadline is 2 s.
        Trickle(
            description: "a body", prefix: "POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{",
            trickle: " "),
        // The first request is served; after its answer the second one's head starts and never ends.
        Trickle(description: "a later keep-alive request's head", prefix: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", trickle: "GET /health HTTP/1.1\r\nX-Pad: " + String(repeating: "a", count: 4096), answersFirst: 1),
    ]

    @Test("a request trickled a byte at a time gets 408 and the connection closes", arguments: trickles)
    func trickledRequest(_ trickle: Trickle) async throws {
        let server = try Self.server(requestTimeout: .seconds(2))
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let received = try await Self.trickled(port: port, prefix: trickle.prefix, trickle: trickle.trickle, answersFirst: trickle.answersFirst)
            let answer = try #require(received, "the connection was still open after 45 s")
            let answers = answer.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
            #expect(answers == (trickle.prefix.hasPrefix("GET") ? ["200", "408"] : ["408"]), "answer: \(answer.prefix(400))")
            #expect(answer.lowercased().contains("connection: close"))
        }
    }

    @Test("requests that arrive in time are served, and the connection stays open between them past the deadline")
    func timelyRequestsKeepTheirConnection() async throws {
        let server = try Self.server(requestTimeout: .seconds(2))
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let connection = try await RawConnection.open(port: port)
            let body = #"{"roomId":"x"}"#
            let request = "POST /api/rooms/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            // Idle between requests, longer than the deadline: idleness is the idle timeout's business.
            let answers = try await connection.requests(request, count: 2, pausing: .milliseconds(3_000))
            #expect(answers.count == 2)
            #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 ") && !$0.hasPrefix("HTTP/1.1 408") }, "answers: \(answers)")
        }
    }
}
