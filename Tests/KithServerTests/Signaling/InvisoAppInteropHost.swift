import Foundation
import Hummingbird
import HummingbirdTesting
import KithPushDelivery
import KithServer
import NIOSSL
import Testing

/// The server half of Interop/serve/check_inviso_app.py: that script starts an HTTP/2 APNs mock, runs this suite with
/// `KITH_INVISO_INTEROP_DIR` (a directory), `KITH_INVISO_INTEROP_APNS_KEY`, `KITH_INVISO_INTEROP_APNS_PORT` and
/// `KITH_INVISO_INTEROP_CERT` (the mock's test-only certificate, the only one trusted), and speaks the Inviso app's
/// protocol to the server this suite runs: it writes the server's port to `<dir>/port` and serves until `<dir>/done`
/// appears (at most 10 minutes). Skipped when the variables are unset.
@Suite("Inviso app interop host (run by Interop/run.sh)")
struct InvisoAppInteropHost {
    static let environment = ProcessInfo.processInfo.environment
    static let directory = environment["KITH_INVISO_INTEROP_DIR"]

    @Test("serve rooms with an APNs provider for the Python app client", .enabled(if: InvisoAppInteropHost.directory != nil))
    func serve() async throws {
        let directory = try #require(Self.directory)
        let key = try APNsProviderConfiguration.signingKey(
            fromPEM: String(contentsOfFile: try #require(Self.environment["KITH_INVISO_INTEROP_APNS_KEY"]), encoding: .utf8))
        let apns = try APNsProviderConfiguration(
            signingKey: key, keyID: "KITHKEY001", teamID: "KITHTEAM01", bundleID: "org.kith.Interop",
            host: "127.0.0.1", port: try #require(Self.environment["KITH_INVISO_INTEROP_APNS_PORT"].flatMap { Int($0) }))
        let certificates = try NIOSSLCertificate.fromPEMFile(try #require(Self.environment["KITH_INVISO_INTEROP_CERT"]))
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(certificates)
        let httpClient = PushHTTPSettings.makeHTTPClient(tlsConfiguration: tls, connectTimeout: .seconds(5))
        let configuration = RendezvousServerConfiguration(
            host: "127.0.0.1", port: 0, limits: TestServer.limits(), nodeID: "inviso-interop",
            push: PushConfiguration(providers: [APNsProvider(configuration: apns, httpClient: httpClient)]))
        let server = RendezvousServer(configuration: configuration, store: try SQLiteRendezvousStore.open(path: nil))
        let done = URL(fileURLWithPath: directory).appendingPathComponent("done").path
        try await server.makeApplication().test(.live) { client in
            let port = try #require(client.port)
            #expect(FileManager.default.createFile(atPath: directory + "/port", contents: Data("\(port)".utf8)))
            let deadline = ContinuousClock.now + .seconds(600)
            while !FileManager.default.fileExists(atPath: done), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await httpClient.shutdown()
    }
}
