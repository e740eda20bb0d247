import Crypto
import Hummingbird
import HummingbirdTesting
import KithContinuity
import KithRendezvous
import KithServer
import KithSync
import Synchronization
import Testing

@Suite("Recovery releases through a join-code relay: two guardians, declines, a substituting relay, replays")
struct RecoveryRelayTests {
    /// A lost identity's secret split 2 of 3, and the new device's request for it.
    struct Scenario {
        let owner = Array(SHA256.hash(data: Array("lost identity".utf8)))
        let secret = Array(repeating: UInt8(0x5A), count: 32) + Array(0..<64)
        let set: RecoveryShareSet
        let requestKey: RecoveryRequestKey

        init() throws {
            set = try RecoveryShareSet.split(secret: secret, ownerFeedID: owner, threshold: 2, shareCount: 3, generation: 1)
            requestKey = try RecoveryRequestKey.make(ownerFeedID: owner)
        }

        /// A guardian that releases `share` only when the code on its screen is the one `heard` aloud, and records
        /// the code it showed.
        func guardian(_ share: RecoveryShare, heard: String, shown: Recorded<[String]>) -> @Sendable (RecoveryRequest) async -> RecoveryRelease? {
            { request in
                shown.update { $0.append(request.safetyCode) }
                guard request.safetyCode == heard else { return nil }
                return try? RecoveryRelease.seal(share, for: request)
            }
        }
    }

    /// The new device's collector, kept across guardians' turns.
    final class Collector: Sendable {
        let state: Mutex<RecoveryCollector>
        let refusals = Mutex<[RecoveryError]>([])
        init(_ key: RecoveryRequestKey) { state = Mutex(RecoveryCollector(requestKey: key)) }

        var keep: @Sendable (RecoveryRelease) async -> Bool {
            { release in
                do throws(RecoveryError) {
                    try self.state.withLock { collector throws(RecoveryError) in _ = try collector.add(release) }
                    return true
                } catch {
                    self.refusals.withLock { $0.append(error) }
                    return false
                }
            }
        }
    }

    /// One turn through the in-process server: the new device offers a join code, the guardian accepts it, both run
    /// their side of the exchange over the relay, and both delete the room.
    static func turn(
        _ pairing: RelayPairing, request: RecoveryRequest, keep: @escaping @Sendable (RecoveryRelease) async -> Bool,
        guardian: @escaping @Sendable (RecoveryRequest) async -> RecoveryRelease?
    ) async throws -> (RecoveryRelayOutcome, RecoveryRelayAnswer) {
        let code = JoinCode.randomDigits(count: 8)
        let (newDevice, guardianDevice) = (DeviceID.random(), DeviceID.random())
        try await pairing.offer(code, device: newDevice)
        let room = try await pairing.accept(code, device: guardianDevice)
        let url = pairing.signalingURL
        let timeouts = RelayTimeouts(peer: .seconds(180), idle: .seconds(180))
        async let asked = RelayConnection.open(signalingURL: url, room: room, device: newDevice, timeouts: timeouts) { transport, role in
            try await RecoveryRelay.ask(over: transport, role: role, request: request, keep: keep)
        }
        let answered = try await RelayConnection.open(signalingURL: url, room: room, device: guardianDevice, timeouts: timeouts) { transport, role in
            try await RecoveryRelay.answer(over: transport, role: role, release: guardian)
        }
        let outcome = try await asked
        let deleted = try await pairing.cleanUp(device: newDevice).roomsDeleted + pairing.cleanUp(device: guardianDevice).roomsDeleted
        #expect(deleted == 1)
        #expect(try await pairing.client.roomExists(room) == false)
        return (outcome, answered)
    }

    @Test("two guardians release through the relay; the new device keeps both and rebuilds the secret; rooms are deleted")
    func twoGuardiansRelease() async throws {
        let scenario = try Scenario()
        let collector = Collector(scenario.requestKey)
        let request = scenario.requestKey.request
        let shown = Recorded<[String]>([])
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            for share in [scenario.set.shares[0], scenario.set.shares[2]] {
                let (outcome, answer) = try await Self.turn(
                    pairing, request: request, keep: collector.keep, guardian: scenario.guardian(share, heard: request.safetyCode, shown: shown))
                guard case .kept = outcome else {
                    Issue.record("expected a kept release, got \(outcome)")
                    return
                }
                #expect(answer == .kept)
            }
        }
        #expect(shown.value == [request.safetyCode, request.safetyCode])
        let rebuilt = try collector.state.withLock { collector throws(RecoveryError) in try collector.combine() }
        #expect(rebuilt == scenario.secret)
    }

    @Test("a guardian who types a wrong safety code sends nothing: the new device hears a decline")
    func wrongCodeSendsNothing() async throws {
        let scenario = try Scenario()
        let collector = Collector(scenario.requestKey)
        let shown = Recorded<[String]>([])
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let (outcome, answer) = try await Self.turn(
                pairing, request: scenario.requestKey.request, keep: collector.keep,
                guardian: scenario.guardian(scenario.set.shares[0], heard: "000000000000", shown: shown))
            #expect(outcome == .declined)
            #expect(answer == .declined)
        }
        #expect(shown.value.count == 1)
        #expect(collector.state.withLock { $0.shares.isEmpty })
    }

    @Test("a relay in the middle that substitutes its own request shows the guardian another safety code: nothing is released")
    func substitutedRequestChangesTheCode() async throws {
        let scenario = try Scenario()
        let genuine = scenario.requestKey.request
        let forged = try RecoveryRequestKey.make(ownerFeedID: scenario.owner)
        let configuration = SimulatedBLEConfiguration(mtu: SyncLimits.maximumMTU, bandwidthBitsPerSecond: 10_000_000)
        let (newDeviceSide, relayTowardsNewDevice) = SimulatedBLELink.makePair(configuration: configuration)
        let (relayTowardsGuardian, guardianSide) = SimulatedBLELink.makePair(configuration: configuration)
        let shown = Recorded<[String]>([])
        let intercepted = Recorded<RecoveryRequest?>(nil)
        let collector = Collector(scenario.requestKey)
        let forgedKept = Recorded(false)

        async let newDevice = RecoveryRelay.ask(over: newDeviceSide, role: .initiator, request: genuine, keep: collector.keep)
        // The relay answers the new device itself (keeping its request) and asks the guardian with its own request.
        async let relayFacingNewDevice = RecoveryRelay.answer(over: relayTowardsNewDevice, role: .responder) { request in
            intercepted.update { $0 = request }
            return nil
        }
        async let relayFacingGuardian = RecoveryRelay.ask(over: relayTowardsGuardian, role: .initiator, request: forged.request) { _ in
            forgedKept.update { $0 = true }
            return true
        }
        let guardian = try await RecoveryRelay.answer(
            over: guardianSide, role: .responder, release: scenario.guardian(scenario.set.shares[0], heard: genuine.safetyCode, shown: shown))

        #expect(guardian == .declined)
        #expect(try await relayFacingGuardian == .declined)
        #expect(try await relayFacingNewDevice == .declined)
        #expect(try await newDevice == .declined)
        #expect(intercepted.value == genuine)
        #expect(shown.value == [forged.request.safetyCode])
        #expect(forged.request.safetyCode != genuine.safetyCode)
        #expect(!forgedKept.value)
    }

    @Test("a release replayed into another guardian's turn, or one of an earlier request, is refused and the guardian told")
    func replayedReleaseRefused() async throws {
        let scenario = try Scenario()
        let request = scenario.requestKey.request
        let collector = Collector(scenario.requestKey)
        let earlier = try RecoveryRequestKey.make(ownerFeedID: scenario.owner)
        let staleRelease = try RecoveryRelease.seal(scenario.set.shares[1], for: earlier.request)
        let shown = Recorded<[String]>([])
        let (server, _, _) = try TestServer.make()
        try await server.makeApplication().test(.live) { client in
            let pairing = try RelayPairing(serverURL: "http://127.0.0.1:\(try #require(client.port))")
            let (first, _) = try await Self.turn(
                pairing, request: request, keep: collector.keep, guardian: scenario.guardian(scenario.set.shares[0], heard: request.safetyCode, shown: shown))
            guard case .kept(let release) = first else {
                Issue.record("expected a kept release, got \(first)")
                return
            }
            // An active relay answers the next turn with the release it saw in the first one.
            let (replayed, replayAnswer) = try await Self.turn(pairing, request: request, keep: collector.keep) { _ in release }
            #expect(replayed == .refused(release))
            #expect(replayAnswer == .refused)
            let (stale, staleAnswer) = try await Self.turn(pairing, request: request, keep: collector.keep) { _ in staleRelease }
            #expect(stale == .refused(staleRelease))
            #expect(staleAnswer == .refused)
        }
        #expect(collector.refusals.withLock { $0 } == [.releaseReplayed, .releaseForAnotherRequest])
        #expect(collector.state.withLock { $0.shares.count } == 1)
    }

    @Test("a frame the relay alters fails authentication instead of reaching the exchange")
    func alteredFrameFailsAuthentication() async throws {
        let (a, b) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: SyncLimits.maximumMTU, bandwidthBitsPerSecond: 10_000_000))
        let scenario = try Scenario()
        let tampering = TamperingTransport(inner: b, tamperAfter: 2)
        async let newDevice = RecoveryRelay.ask(over: a, role: .initiator, request: scenario.requestKey.request) { _ in true }
        await #expect(throws: RecoveryRelayError.channel(.authenticationFailed)) {
            _ = try await RecoveryRelay.answer(over: tampering, role: .responder) { _ in nil }
        }
        await b.close()
        _ = try? await newDevice
    }
}

/// A value several tasks record into.
final class Recorded<Value: Sendable>: Sendable {
    private let state: Mutex<Value>
    init(_ value: Value) { state = Mutex(value) }
    var value: Value { state.withLock { $0 } }
    func update(_ change: (inout Value) -> Void) { state.withLock { change(&$0) } }
}

/// A transport whose received frames past the first `tamperAfter` have one bit flipped (a relay altering bytes).
final class TamperingTransport: SyncTransport {
    let mtu: Int
    private let inner: any SyncTransport
    private let received = Mutex(0)
    private let tamperAfter: Int

    init(inner: any SyncTransport, tamperAfter: Int) {
        self.inner = inner
        mtu = inner.mtu
        self.tamperAfter = tamperAfter
    }

    func send(_ frame: [UInt8]) async throws(SyncTransportError) { try await inner.send(frame) }

    func receive() async throws(SyncTransportError) -> [UInt8] {
        var frame = try await inner.receive()
        let count = received.withLock { count in
            count += 1
            return count
        }
        if count > tamperAfter, !frame.isEmpty { frame[frame.count / 2] ^= 0x01 }
        return frame
    }

    func close() async { await inner.close() }
}
