import AsyncHTTPClient
import Crypto
import CryptoExtras
import KithCanonical
import KithPushDelivery
import Synchronization

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds: Mutex<Int64>

    init(_ start: Int64 = 1_800_000_000) { seconds = Mutex(start) }

    var now: Int64 { seconds.withLock { $0 } }

    func advance(by delta: Int64) { seconds.withLock { $0 += delta } }

    var pushClock: PushClock { PushClock { [self] in self.now } }
}

/// A decoded compact JWT.
struct DecodedJWT {
    let header: JSONObject
    let claims: JSONObject
    let signingInput: [UInt8]
    let signature: [UInt8]

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerBytes = try? Base64URL.decode(String(parts[0])),
              let claimBytes = try? Base64URL.decode(String(parts[1])),
              let signature = try? Base64URL.decode(String(parts[2])),
              let header = try? CanonicalJSON.parse(headerBytes).objectValue,
              let claims = try? CanonicalJSON.parse(claimBytes).objectValue else { return nil }
        self.header = header
        self.claims = claims
        self.signature = signature
        self.signingInput = Array("\(parts[0]).\(parts[1])".utf8)
    }

    func verifiesES256(_ key: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return key.isValidSignature(parsed, for: signingInput)
    }

    func verifiesRS256(_ key: _RSA.Signing.PublicKey) -> Bool {
        key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: signingInput, padding: .insecurePKCS1v1_5)
    }
}

enum Fixtures {
    /// A knock body as the gateway builds it.
    static let knockToken = "0123456789abcdef0123456789abcdef01234567"
    static let knock = Array(#"{"message":{"data":"hi","token":"0123456789abcdef0123456789abcdef01234567"}}"#.utf8)
    /// What FCM `data.message` carries for ``knock``: the JSON text of ChatSecure-Push-Server's `{"message":{"data","token"}}`.
    static let knockMessageJSON = #"{"message":{"data":"hi","token":"0123456789abcdef0123456789abcdef01234567"}}"#

    /// A client trusting the mock's certificate, never following redirects.
    static func httpClient() throws -> HTTPClient {
        try PushHTTPSettings.makeHTTPClient(tlsConfiguration: MockTLS.clientConfiguration(), connectTimeout: .seconds(30))
    }

    /// One RSA key for all FCM tests (generation is slow in debug builds).
    static let rsaKey: _RSA.Signing.PrivateKey = {
        // A 2048-bit key generation only fails on allocation failure.
        guard let key = try? _RSA.Signing.PrivateKey(keySize: .bits2048) else { fatalError("RSA key generation failed") }
        return key
    }()
}

/// Runs `body` with a started mock and a client, shutting both down afterwards.
func withMock<T>(
    _ mode: MockPushServer.Mode,
    respond: @escaping @Sendable (RecordedRequest) -> MockResponse,
    _ body: (MockPushServer, HTTPClient) async throws -> T
) async throws -> T {
    let server = try await MockPushServer.start(mode, respond: respond)
    let client = try Fixtures.httpClient()
    do {
        let result = try await body(server, client)
        try await client.shutdown()
        await server.shutdown()
        return result
    } catch {
        try? await client.shutdown()
        await server.shutdown()
        throw error
    }
}
