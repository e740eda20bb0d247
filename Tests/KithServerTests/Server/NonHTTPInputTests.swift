import Foundation
import KithServer
import NIOCore
import NIOPosix
import Testing

/// Bytes that are not an HTTP/1 request are refused at once (400 and close), not held until the head timeout.
@Suite("Input that is not HTTP/1")
struct NonHTTPInputTests {
    typealias RawConnection = RequestHeadGuardTests.RawConnection

    @Test("a TLS ClientHello, binary noise, a request line without HTTP/1.x: 400 and closed long before the head timeout", arguments: [
        "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}",
        "\u{00}\u{01}\u{02}",
        "GARBAGE GARBAGE\r\n\r\n",
        "GET / SPDY/3\r\nHost: x\r\n\r\n",
        String(repeating: "A", count: 40),
    ])
    func refusedAtOnce(input: String) async throws {
        // A head timeout far beyond the wait below: only the refusal can close the connection in time.
        let server = try RequestHeadGuardTests.server(headTimeout: .seconds(600))
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let connection = try await RawConnection.open(port: port)
            let answer = try await connection.untilClosed(after: input, seconds: 180)
            let received = try #require(answer, "the connection was still open after 180 s")
            #expect(received.hasPrefix("HTTP/1.1 400 ") || received.isEmpty)
        }
    }

    @Test("a request trickled in, its method split across reads, is still served")
    func splitMethodIsServed() async throws {
        let server = try RequestHeadGuardTests.server(headTimeout: .seconds(600))
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let connection = try await RawConnection.open(port: port)
            let rest = try await connection.channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: "\r\nGE"))
                try await Task.sleep(for: .milliseconds(200))
                try await outbound.write(ByteBuffer(string: "T /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
                return try await RawConnection.within(180) {
                    var received = ""
                    for try await buffer in inbound { received += String(buffer: buffer) }
                    return received
                }
            }
            #expect(rest?.hasPrefix("HTTP/1.1 ") == true && rest?.hasPrefix("HTTP/1.1 400") == false)
        }
    }
}
