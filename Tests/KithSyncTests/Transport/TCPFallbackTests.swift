import Crypto
import KithSync
import Testing

@Suite("IK to XX fallback over TCP", .timeLimit(.minutes(3)))
struct TCPFallbackTests {
    let parties = LinkParties()

    @Test("a listener that rotated its key is reached on a second TCP connection with XX")
    func rotatedListener() async throws {
        let listener = try await TCPSyncListener.bind(port: 0)
        let rotated = Curve25519.KeyAgreement.PrivateKey()
        let responder = parties.configuration(rotated, allowing: [parties.alicePublic])
        // The listener answers every connection; the first (IK to the old key) fails on its side.
        let accepting = Task { () -> [Result<SecureLink, SecureLinkError>] in
            var results: [Result<SecureLink, SecureLinkError>] = []
            for await transport in listener.connections {
                let result = await Result<SecureLink, SecureLinkError> { () async throws(SecureLinkError) -> SecureLink in
                    try await SecureLink.accept(over: transport, configuration: responder)
                }
                results.append(result)
                if case .success = result { break }
            }
            return results
        }
        let port = listener.port
        let link = try await SecureLink.connect(
            dialing: { () async throws(SyncTransportError) -> any SyncTransport in try await TCPTransport.connect(host: "127.0.0.1", port: port) },
            configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic, Array(rotated.publicKey.rawRepresentation)]),
            responderStaticKey: parties.bobPublic
        )
        let results = await accepting.value
        await listener.close()
        #expect(link.pattern == .xx)
        #expect(link.peerStaticKey == Array(rotated.publicKey.rawRepresentation))
        #expect(results.count == 2)
        let responderLink = try #require(try results.last?.get())
        try await link.send(.done)
        #expect(try await responderLink.receive() == .done)
        await link.close()
    }
}
