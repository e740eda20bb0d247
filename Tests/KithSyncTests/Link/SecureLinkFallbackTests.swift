import Crypto
import KithSync
import Synchronization
import Testing

/// A dialer over fresh simulated links: every call makes a new pair and runs `accept` with the
/// responder's configuration on its peripheral, recording each attempt's pattern and outcome.
private final class SimulatedDialer: Sendable {
    private let attempts = Mutex<[Task<Result<SecureLink, SecureLinkError>, Never>]>([])
    private let responder: @Sendable () -> SecureLinkConfiguration

    init(responder: @escaping @Sendable () -> SecureLinkConfiguration) {
        self.responder = responder
    }

    var dialCount: Int { attempts.withLock { $0.count } }

    func dial() -> any SyncTransport {
        let (central, peripheral) = SimulatedBLELink.makePair()
        let configuration = responder()
        let task = Task { await Result<SecureLink, SecureLinkError> { () async throws(SecureLinkError) -> SecureLink in
            try await SecureLink.accept(over: peripheral, configuration: configuration)
        } }
        attempts.withLock { $0.append(task) }
        return central
    }

    func responderResults() async -> [Result<SecureLink, SecureLinkError>] {
        var results: [Result<SecureLink, SecureLinkError>] = []
        for task in attempts.withLock({ $0 }) { results.append(await task.value) }
        return results
    }
}

@Suite("IK with XX fallback", .timeLimit(.minutes(3)))
struct SecureLinkFallbackTests {
    let parties = LinkParties()

    @Test("a known key gives IK on the first connection")
    func ikFirst() async throws {
        let dialer = SimulatedDialer { [parties] in parties.configuration(parties.bob, allowing: [parties.alicePublic]) }
        let link = try await SecureLink.connect(
            dialing: { dialer.dial() }, configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: parties.bobPublic
        )
        #expect(link.pattern == .ik)
        #expect(dialer.dialCount == 1)
        let responder = try #require(await dialer.responderResults().first?.get())
        #expect(responder.pattern == .ik)
        #expect(responder.handshakeHash == link.handshakeHash)
    }

    @Test("a responder that rotated its static key is reached by XX on a new connection")
    func rotatedKey() async throws {
        let rotated = Curve25519.KeyAgreement.PrivateKey()
        let rotatedPublic = Array(rotated.publicKey.rawRepresentation)
        let dialer = SimulatedDialer { [parties] in parties.configuration(rotated, allowing: [parties.alicePublic]) }
        // Alice still knows Bob's old key, but her allow-list knows the new one (a verified rotation).
        let link = try await SecureLink.connect(
            dialing: { dialer.dial() },
            configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic, rotatedPublic]),
            responderStaticKey: parties.bobPublic
        )
        #expect(link.pattern == .xx)
        #expect(link.peerStaticKey == rotatedPublic)
        #expect(dialer.dialCount == 2)
        let results = await dialer.responderResults()
        guard case .failure = results[0] else { Issue.record("the IK attempt should fail on the responder"); return }
        let responder = try results[1].get()
        #expect(responder.pattern == .xx)
        // The link works.
        try await link.send(.done)
        #expect(try await responder.receive() == .done)
    }

    @Test("a responder that refuses IK is reached by XX")
    func ikRefused() async throws {
        let dialer = SimulatedDialer { [parties] in
            var configuration = parties.configuration(parties.bob, allowing: [parties.alicePublic])
            configuration.acceptedPatterns = [.xx]
            return configuration
        }
        let link = try await SecureLink.connect(
            dialing: { dialer.dial() }, configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: parties.bobPublic
        )
        #expect(link.pattern == .xx)
        #expect(dialer.dialCount == 2)
        let results = await dialer.responderResults()
        #expect(throws: SecureLinkError.unsupportedPattern(0x02)) { try results[0].get() }
    }

    @Test("no fallback when the initiator's own allow-list refuses the known key")
    func noFallbackWhenRefusedLocally() async throws {
        let dialer = SimulatedDialer { [parties] in parties.configuration(parties.bob, allowing: [parties.alicePublic]) }
        await #expect(throws: SecureLinkError.peerNotAllowed) {
            _ = try await SecureLink.connect(
                dialing: { dialer.dial() }, configuration: parties.configuration(parties.alice, allowing: []),
                responderStaticKey: parties.bobPublic
            )
        }
        #expect(dialer.dialCount == 1)
    }

    @Test("a rotated key the initiator does not accept fails after the XX attempt")
    func fallbackStillChecksAllowList() async throws {
        let stranger = Curve25519.KeyAgreement.PrivateKey()
        let dialer = SimulatedDialer { [parties] in parties.configuration(stranger, allowing: [parties.alicePublic]) }
        await #expect(throws: SecureLinkError.peerNotAllowed) {
            _ = try await SecureLink.connect(
                dialing: { dialer.dial() }, configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
                responderStaticKey: parties.bobPublic
            )
        }
        #expect(dialer.dialCount == 2)
    }

    @Test("without a known key the dialer runs XX once")
    func unknownKey() async throws {
        let dialer = SimulatedDialer { [parties] in parties.configuration(parties.bob, allowing: [parties.alicePublic]) }
        let link = try await SecureLink.connect(
            dialing: { dialer.dial() }, configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: nil
        )
        #expect(link.pattern == .xx)
        #expect(dialer.dialCount == 1)
    }

    @Test("a responder answers IK addressed to its alternate static key, on the first connection, and to no other key")
    func alternateStatic() async throws {
        // Bob presents his previous key and also answers IK to his current one (docs/sync.md, "After a key rotation").
        let current = Curve25519.KeyAgreement.PrivateKey()
        let dialer = SimulatedDialer { [parties] in
            var configuration = parties.configuration(parties.bob, allowing: [parties.alicePublic])
            configuration.alternateStatic = current
            return configuration
        }
        let currentPublic = Array(current.publicKey.rawRepresentation)
        let link = try await SecureLink.connect(
            over: dialer.dial(), configuration: parties.configuration(parties.alice, allowing: [currentPublic]),
            responderStaticKey: currentPublic
        )
        #expect(link.pattern == .ik && link.peerStaticKey == currentPublic)
        let responder = try #require(await dialer.responderResults().first?.get())
        #expect(responder.pattern == .ik && responder.handshakeHash == link.handshakeHash)

        // IK to the presented key still works; IK to an unrelated key does not.
        let presented = try await SecureLink.connect(
            over: dialer.dial(), configuration: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
            responderStaticKey: parties.bobPublic
        )
        #expect(presented.pattern == .ik)
        let strangerKey = Array(parties.mallory.publicKey.rawRepresentation)
        await #expect(throws: SecureLinkError.self) {
            _ = try await SecureLink.connect(
                over: dialer.dial(), configuration: parties.configuration(parties.alice, allowing: [strangerKey]),
                responderStaticKey: strangerKey
            )
        }
        let results = await dialer.responderResults()
        #expect(results.count == 3)
        if case .failure(let error)? = results.last { #expect(error == .handshake(.authenticationFailed)) } else { Issue.record("accepted") }
    }
}
