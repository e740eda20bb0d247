import KithCanonical
import Crypto
import KithSync
import PropertyBased
import Testing

@Suite("SecureLink properties", .timeLimit(.minutes(3)))
struct SecureLinkPropertyTests {
    let parties = LinkParties()

    func connectedPair(mtu: Int) async throws -> (SecureLink, SecureLink) {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(mtu: mtu))
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        return (try connected.get(), try accepted.get())
    }

    @Test("any sequence of records arrives intact and in order at any MTU")
    func recordsSurvive() async {
        await propertyCheck(count: 25, input: Gen.int(in: 20...509), Gen.int(in: 1...40), Gen.uint64()) { mtu, count, seed in
            let (alice, bob) = try await connectedPair(mtu: mtu)
            let layout = try FrameLayout(mtu: mtu)
            var generator = SplitMix64(seed: seed)
            var frames: [SyncFrame] = []
            for index in 0..<count {
                let id = try Fixtures.messageID(UInt8(truncatingIfNeeded: index))
                switch generator.next() % 4 {
                case 0: frames.append(.ack(SyncAck(messageID: id, status: .ok)))
                case 1: frames.append(.request(SyncRequest(feedTag: try Fixtures.feedTag(UInt8(index)), haveSequence: UInt32(index))))
                case 2: frames.append(.done)
                default:
                    let length = Int(generator.next() % UInt64(layout.chunkDataLength)) + 1
                    frames.append(.chunk(SyncChunk(messageID: id, chunkIndex: 0, totalChunks: 1, data: Fixtures.randomBytes(length, seed: seed))))
                }
            }
            try await alice.send(frames)
            for frame in frames { #expect(try await bob.receive() == frame) }
            await alice.close()
        }
    }

    @Test("concurrent sends never interleave their segments")
    func concurrentSends() async throws {
        let (alice, bob) = try await connectedPair(mtu: 20)
        let layout = try FrameLayout(mtu: 20)
        let batches: [[SyncFrame]] = try (0..<8).map { batch in
            try (0..<5).map { index in
                .chunk(SyncChunk(
                    messageID: try Fixtures.messageID(UInt8(batch * 10 + index)), chunkIndex: 0, totalChunks: 1,
                    data: [UInt8](repeating: UInt8(batch), count: layout.chunkDataLength)
                ))
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in batches {
                group.addTask { try await alice.send(batch) }
            }
            try await group.waitForAll()
        }
        var received: [SyncFrame] = []
        for _ in 0..<40 { received.append(try await bob.receive()) }
        #expect(Set(received) == Set(batches.flatMap { $0 }))
        // Each call's records stay contiguous.
        for batch in batches {
            guard let start = received.firstIndex(of: batch[0]) else { continue }
            #expect(Array(received[start..<(start + batch.count)]) == batch)
        }
    }
}
