import KithServer
import NIOCore
import NIOPosix
import Testing

/// Raw connections from a chosen loopback address: on Linux all of 127.0.0.0/8 is loopback, so
/// 127.0.0.2, 127.0.0.3… are other sources to the server than the 127.0.0.1 of every other client.
extension RequestHeadGuardTests.RawConnection {
    typealias Inbound = NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator

    /// A connection from `source` to the server on 127.0.0.1:`port`.
    static func open(port: Int, from source: String) async throws -> Self {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(to: try SocketAddress(ipAddress: source, port: 0))
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return Self(channel: channel)
    }

    /// Reads one HTTP response, head and `content-length` body; nil when the connection ends first.
    static func response(from inbound: inout Inbound) async throws -> String? {
        var text = ""
        while true {
            if let end = text.range(of: "\r\n\r\n") {
                let head = text[..<end.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text.utf8.count - text[..<end.upperBound].utf8.count >= length { return text }
            }
            guard let buffer = try await inbound.next() else { return nil }
            text += String(buffer: buffer)
        }
    }

    /// Sends `request` on each of `connections` and reads its answer (so each is accepted and set
    /// up by the server), runs `body` while they all stay open, then closes them. `answers` gets
    /// each answer's status line.
    static func holding<T: Sendable>(
        _ connections: ArraySlice<Self>, request: String, answers: inout [String], _ body: () async throws -> T
    ) async throws -> T {
        guard let first = connections.first else { return try await body() }
        return try await first.channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: request))
            var iterator = inbound.makeAsyncIterator()
            let answer = try await response(from: &iterator)
            answers.append(answer.map { String($0.split(separator: "\r\n").first ?? "") } ?? "closed")
            return try await holding(connections.dropFirst(), request: request, answers: &answers, body)
        }
    }

    /// Sends `request` `count` times, reading each answer ("closed" when none came) and then
    /// staying silent for `pause`; closes the connection after the last.
    func requests(_ request: String, count: Int, pausing pause: Duration) async throws -> [String] {
        try await channel.executeThenClose { inbound, outbound in
            var iterator = inbound.makeAsyncIterator()
            var answers: [String] = []
            for _ in 0..<count {
                try await outbound.write(ByteBuffer(string: request))
                answers.append(try await Self.response(from: &iterator) ?? "closed")
                try await Task.sleep(for: pause)
            }
            return answers
        }
    }

    /// Sends `request` and returns the answer (nil: closed without one; a refused write counts as closed).
    func exchange(_ request: String, seconds: Double = 60) async throws -> String? {
        try await channel.executeThenClose { inbound, outbound in
            do { try await outbound.write(ByteBuffer(string: request)) } catch { return nil }
            return try await Self.within(seconds) {
                var iterator = inbound.makeAsyncIterator()
                // A reset (the server closed a connection that had sent bytes) is a close too.
                do { return try await Self.response(from: &iterator) } catch { return nil }
            } ?? nil
        }
    }
}
