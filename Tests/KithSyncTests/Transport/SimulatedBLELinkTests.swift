import KithSync
import Testing

@Suite("SimulatedBLELink", .timeLimit(.minutes(3)))
struct SimulatedBLELinkTests {
    @Test("frames arrive in order; time = bytes × 8 / bandwidth + latency")
    func virtualTime() async throws {
        let configuration = SimulatedBLEConfiguration(mtu: 100, bandwidthBitsPerSecond: 8_000, latencySeconds: 0.5, perFrameOverheadBytes: 0)
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        try await central.send([UInt8](repeating: 1, count: 100))
        try await central.send([UInt8](repeating: 2, count: 100))
        #expect(await central.now() == 0.2)
        #expect(try await peripheral.receive() == [UInt8](repeating: 1, count: 100))
        #expect(await peripheral.now() == 0.6)
        #expect(try await peripheral.receive() == [UInt8](repeating: 2, count: 100))
        #expect(await peripheral.now() == 0.7)
        let stats = await central.statistics()
        #expect(stats.bytesOnAir == 200)
        #expect(stats.framesOnAir == 2)
        #expect(stats.framesDelivered == 2)
        #expect(stats.elapsedSeconds == 0.7)
    }

    @Test("per-frame overhead is counted on the air")
    func overhead() async throws {
        let (central, _) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(perFrameOverheadBytes: 17))
        try await central.send([1, 2, 3])
        #expect(await central.statistics().bytesOnAir == 20)
    }

    @Test("oversized and empty frames are refused")
    func frameSize() async throws {
        let (central, _) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: 20))
        await #expect(throws: SyncTransportError.frameTooLarge(size: 21, mtu: 20)) { try await central.send([UInt8](repeating: 0, count: 21)) }
        await #expect(throws: SyncTransportError.emptyFrame) { try await central.send([]) }
    }

    @Test("loss is deterministic for a seed")
    func deterministicLoss() async throws {
        func delivered(seed: UInt64) async throws -> [UInt8] {
            let configuration = SimulatedBLEConfiguration(lossProbability: 0.3, lossSeed: seed)
            let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
            for value in UInt8(0)..<100 { try await central.send([value]) }
            await central.close()
            var received: [UInt8] = []
            while let frame = try? await peripheral.receive() { received += frame }
            return received
        }
        let first = try await delivered(seed: 5)
        #expect(first == (try await delivered(seed: 5)))
        #expect(first != (try await delivered(seed: 6)))
        #expect(first.count < 100 && first.count > 40)
    }

    @Test("the link disconnects after N bytes")
    func disconnectAfterBytes() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(disconnectAfterBytes: 250))
        try await central.send([UInt8](repeating: 0, count: 200))
        await #expect(throws: SyncTransportError.disconnected) { try await central.send([UInt8](repeating: 0, count: 100)) }
        await #expect(throws: SyncTransportError.disconnected) { try await peripheral.receive() }
        await #expect(throws: SyncTransportError.disconnected) { try await peripheral.send([1]) }
        #expect(await central.statistics().disconnected)
    }

    @Test("the link disconnects after N virtual seconds")
    func disconnectAfterSeconds() async throws {
        let configuration = SimulatedBLEConfiguration(bandwidthBitsPerSecond: 8_000, disconnectAfterSeconds: 0.25)
        let (central, _) = SimulatedBLELink.makePair(configuration: configuration)
        try await central.send([UInt8](repeating: 0, count: 200))
        await #expect(throws: SyncTransportError.disconnected) { try await central.send([UInt8](repeating: 0, count: 100)) }
    }

    @Test("both sides waiting with nothing in flight time out instead of hanging")
    func idleTimeout() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(idleTimeoutSeconds: 5))
        async let other = Result { () async throws(SyncTransportError) -> [UInt8] in try await peripheral.receive() }
        await #expect(throws: SyncTransportError.idleTimeout) { try await central.receive() }
        let otherResult = await other
        #expect(otherResult.failure == .idleTimeout)
        #expect(await central.now() == 5)
    }

    @Test("close fails pending and later calls on both sides")
    func close() async throws {
        let (central, peripheral) = SimulatedBLELink.makePair()
        try await central.send([7])
        await central.close()
        #expect(try await peripheral.receive() == [7])
        await #expect(throws: SyncTransportError.closed) { try await peripheral.receive() }
        await #expect(throws: SyncTransportError.closed) { try await peripheral.send([1]) }
    }
}

extension Result where Failure == SyncTransportError {
    init(catching body: () async throws(SyncTransportError) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
