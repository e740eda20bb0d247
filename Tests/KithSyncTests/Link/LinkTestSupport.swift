import Crypto
import KithSync
import Synchronization
import Testing

/// A transport wrapper that lets a test alter, drop or duplicate frames it sends.
final class InterceptingTransport: SyncTransport {
    private let inner: any SyncTransport
    private let sentCount = Mutex(0)
    private let rewrite: @Sendable (_ index: Int, _ frame: [UInt8]) -> [[UInt8]]

    init(_ inner: any SyncTransport, rewrite: @escaping @Sendable (_ index: Int, _ frame: [UInt8]) -> [[UInt8]]) {
        self.inner = inner
        self.rewrite = rewrite
    }

    var mtu: Int { inner.mtu }

    func send(_ frame: [UInt8]) async throws(SyncTransportError) {
        let index = sentCount.withLock { count in
            defer { count += 1 }
            return count
        }
        for output in rewrite(index, frame) { try await inner.send(output) }
    }

    func receive() async throws(SyncTransportError) -> [UInt8] { try await inner.receive() }
    func close() async { await inner.close() }
}

/// Two parties with static keys who accept each other.
struct LinkParties {
    let alice = Curve25519.KeyAgreement.PrivateKey()
    let bob = Curve25519.KeyAgreement.PrivateKey()
    let mallory = Curve25519.KeyAgreement.PrivateKey()

    var alicePublic: [UInt8] { Array(alice.publicKey.rawRepresentation) }
    var bobPublic: [UInt8] { Array(bob.publicKey.rawRepresentation) }

    func configuration(
        _ key: Curve25519.KeyAgreement.PrivateKey,
        allowing allowed: [[UInt8]],
        capabilities: SyncCapabilities = .all,
        padding: Bool = false
    ) -> SecureLinkConfiguration {
        let allowedSet = Set(allowed)
        return SecureLinkConfiguration(
            localStatic: key,
            hello: SyncHello(capabilities: capabilities),
            padsFramesToFullSize: padding
        ) { peer in allowedSet.contains(peer) }
    }

    /// Alice connects to Bob, each allowing only the other (the common case of the link tests).
    func establishContacts(
        central: any SyncTransport,
        peripheral: any SyncTransport,
        responderKey: [UInt8]? = nil
    ) async -> (Result<SecureLink, SecureLinkError>, Result<SecureLink, SecureLinkError>) {
        await establish(
            central: central, peripheral: peripheral,
            initiator: configuration(alice, allowing: [bobPublic]),
            responder: configuration(bob, allowing: [alicePublic]),
            responderKey: responderKey
        )
    }

    /// Runs both handshakes concurrently.
    /// A session on bob's side against a hand-driven SecureLink on alice's side, both offering
    /// `capabilities`; returns bob's report once `script` is done with alice's link.
    func againstRawPeer(
        capabilities: SyncCapabilities = .all,
        bob source: InMemoryFeedSource,
        script: @escaping @Sendable (SecureLink) async throws -> Void
    ) async throws -> SyncSessionReport {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let (connected, accepted) = await establish(
            central: central, peripheral: peripheral,
            initiator: configuration(alice, allowing: [bobPublic], capabilities: capabilities),
            responder: configuration(bob, allowing: [alicePublic], capabilities: capabilities)
        )
        let aliceLink = try connected.get()
        let bobLink = try accepted.get()
        async let report = SyncSession(link: bobLink, source: source, clock: peripheral).run()
        try await script(aliceLink)
        return await report
    }

    func establish(
        central: any SyncTransport,
        peripheral: any SyncTransport,
        initiator: SecureLinkConfiguration,
        responder: SecureLinkConfiguration,
        responderKey: [UInt8]? = nil
    ) async -> (Result<SecureLink, SecureLinkError>, Result<SecureLink, SecureLinkError>) {
        async let accepted = Result<SecureLink, SecureLinkError> { () async throws(SecureLinkError) -> SecureLink in
            try await SecureLink.accept(over: peripheral, configuration: responder)
        }
        let connected = await Result<SecureLink, SecureLinkError> { () async throws(SecureLinkError) -> SecureLink in
            try await SecureLink.connect(over: central, configuration: initiator, responderStaticKey: responderKey)
        }
        return (connected, await accepted)
    }
}

extension Result where Failure == SecureLinkError {
    init(catching body: () async throws(SecureLinkError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
