import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import KithRendezvous
@testable import KithServer
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import Testing

/// `kith serve --tls-cert --tls-key`: REST, signaling and push over TLS, checked with real TLS clients that trust a
/// throwaway self-signed certificate (the push tests' mock CA, for 127.0.0.1 and localhost).
@Suite("TLS: HTTPS and WSS from one port")
struct TLSServingTests {
    static let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("KithPushDeliveryTests/Support")
    static let certificate = support.appendingPathComponent("mock.crt").path
    static let key = support.appendingPathComponent("mock.key").path

    static func server(headTimeout: Duration = .seconds(10)) throws -> RendezvousServer {
        var limits = TestServer.limits()
        limits.requestHeadTimeout = headTimeout
        var configuration = RendezvousServerConfiguration(host: "127.0.0.1", port: 0, limits: limits, nodeID: "tls-node")
        configuration.tls = try TLSConfiguration.server(certificateFile: certificate, keyFile: key)
        return RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil))
    }

    /// A client configuration that trusts only the test certificate.
    static func clientTLS() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(certificate))
        return tls
    }

    @Test("REST answers over HTTPS to a client that verifies the certificate; the embedded URL says https")
    func https() async throws {
        let server = try Self.server()
        var configuration = HTTPClient.Configuration(tlsConfiguration: try Self.clientTLS())
        configuration.timeout = .init(connect: .seconds(30), read: .seconds(30))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            try await server.serving { url in
                #expect(url.hasPrefix("https://"))
                let response = try await client.execute(HTTPClientRequest(url: url + "/health"), timeout: .seconds(30))
                #expect(response.status == .ok)
                let document = try await client.execute(HTTPClientRequest(url: url + "/openapi.json"), timeout: .seconds(30))
                #expect(document.status == .ok)
            }
        } catch {
            try await client.shutdown()
            throw error
        }
        try await client.shutdown()
    }

    @Test("signaling over WSS: the Inviso connected message arrives through TLS")
    func wss() async throws {
        let server = try Self.server()
        try await server.serving { url in
            // The certificate names localhost and 127.0.0.1; a TLS client sends no SNI for an IP address, so use the name.
            let port = try #require(url.split(separator: ":").last)
            let wss = "wss://localhost:\(port)/"
            let (first, input) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
            try await WebSocketClient.connect(url: wss, tlsConfiguration: try Self.clientTLS(), logger: Logger(label: "test")) { inbound, outbound, _ in
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { input.yield(text); break }
                }
                try await outbound.close(.normalClosure, reason: nil)
            }
            input.finish()
            var iterator = first.makeAsyncIterator()
            let text = try #require(await iterator.next())
            #expect(text.contains("\"connected\""))
        }
    }

    @Test("plain HTTP to the TLS port is closed at once without an HTTP answer; a certificate the client does not trust fails the handshake")
    func plainAndUntrusted() async throws {
        // A head timeout far beyond the wait below: only the failed handshake can close the connection in time.
        let server = try Self.server(headTimeout: .seconds(600))
        try await server.serving { url in
            let port = try #require(Int(url.split(separator: ":").last ?? ""))
            let connection = try await RequestHeadGuardTests.RawConnection.open(port: port)
            let answer = try await connection.untilClosed(after: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", seconds: 180)
            let closed = try #require(answer, "the connection was still open after 180 s")
            #expect(!closed.hasPrefix("HTTP/1.1 200"))
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let untrusted = await Result(catching: { try await client.execute(HTTPClientRequest(url: url + "/health"), timeout: .seconds(30)) })
            try await client.shutdown()
            #expect(throws: (any Error).self) { try untrusted.get() }
        }
    }

    @Test("settings: a certificate without its key is refused; a key that is not PEM fails at assembly, naming the flag")
    func settingsAndFiles() throws {
        var flags = ServerSettings.Flags()
        flags.tlsCertificateFile = Self.certificate
        #expect(throws: ServerSettingsError.incompleteTLS) { try ServerSettings(flags: flags, environment: [:]) }
        #expect(throws: ServerSettingsError.incompleteTLS) { try ServerSettings(flags: .init(), environment: ["KITH_SERVE_TLS_KEY": Self.key]) }
        flags.tlsKeyFile = Self.key
        #expect(try ServerSettings(flags: flags, environment: [:]).tls?.keyFile == Self.key)
        do {
            _ = try TLSConfiguration.server(certificateFile: Self.certificate, keyFile: Self.certificate)
            Issue.record("a certificate was accepted as a key")
        } catch {
            #expect(error.description.contains("--tls-key"))
        }
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
