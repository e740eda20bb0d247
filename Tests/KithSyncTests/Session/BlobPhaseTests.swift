import KithSync
import Testing

/// Runs one session over a simulated link with a blob source on each side.
private func runWithBlobs(
    _ parties: LinkParties,
    feeds: (alice: InMemoryFeedSource, bob: InMemoryFeedSource),
    blobs: (alice: InMemoryBlobSource, bob: InMemoryBlobSource),
    configuration: SimulatedBLEConfiguration = SimulatedBLEConfiguration(),
    bobCapabilities: SyncCapabilities = .all,
    bobMaximumBlob: Int = SyncLimits.defaultMaximumBlobLength
) async throws -> (alice: SyncSessionReport, bob: SyncSessionReport, air: SimulatedAirStatistics) {
    let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
    let (connected, accepted) = await parties.establish(
        central: central, peripheral: peripheral,
        initiator: parties.configuration(parties.alice, allowing: [parties.bobPublic]),
        responder: parties.configuration(parties.bob, allowing: [parties.alicePublic], capabilities: bobCapabilities)
    )
    let aliceLink = try connected.get()
    let bobLink = try accepted.get()
    async let bobReport = SyncSession(
        link: bobLink, source: feeds.bob, clock: peripheral,
        options: SyncSessionOptions(blobSource: blobs.bob, maximumBlobLength: bobMaximumBlob)
    ).run()
    let aliceReport = await SyncSession(
        link: aliceLink, source: feeds.alice, clock: central, options: SyncSessionOptions(blobSource: blobs.alice)
    ).run()
    return (aliceReport, await bobReport, await central.statistics())
}

private func followingFeed() async throws -> (InMemoryFeedSource, InMemoryFeedSource) {
    let sources = await Fixtures.sources(sharing: try Fixtures.feedID(0xA0), count: 5) { Fixtures.envelope(400, seed: Int($0)) }
    return (sources.alice, sources.bob)
}

@Suite("Blob phase", .timeLimit(.minutes(3)))
struct BlobPhaseTests {
    let parties = LinkParties()

    @Test("wanted blobs cross after the envelopes, verified, at several MTUs", arguments: [20, 182, 244])
    func transfer(mtu: Int) async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        let big = Fixtures.randomBytes(20_000, seed: 1)
        let small = Fixtures.randomBytes(300, seed: 2)
        let bigID = await aliceBlobs.put(big)
        let smallID = await aliceBlobs.put(small)
        let absent = SyncBlobID(blob: [1, 2, 3])
        await bobBlobs.want([bigID, smallID, absent])
        let result = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs), configuration: SimulatedBLEConfiguration(mtu: mtu))
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.bob.messagesAccepted == 5)
        #expect(result.bob.blobsWanted == 3)
        #expect(result.bob.blobsReceived == 2)
        #expect(result.alice.blobsSent == 2)
        #expect(await bobBlobs.held(bigID) == big)
        #expect(await bobBlobs.held(smallID) == small)
        #expect(await bobBlobs.held(absent) == nil)
    }

    @Test("blobs are never compressed: a compressible blob costs its full size on the air")
    func neverCompressed() async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        let zeros = [UInt8](repeating: 0, count: 30_000)
        await bobBlobs.want([await aliceBlobs.put(zeros)])
        let result = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs))
        #expect(result.bob.blobsReceived == 1)
        #expect(result.air.bytesOnAir > 30_000)
    }

    @Test("a blob above the asking side's limit is answered missing, never sent")
    func sizeLimit() async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        let id = await aliceBlobs.put(Fixtures.randomBytes(10_000, seed: 3))
        await bobBlobs.want([id])
        let result = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs), bobMaximumBlob: 4_000)
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.alice.blobsSent == 0)
        #expect(result.bob.blobsReceived == 0)
        #expect(result.air.bytesOnAir < 10_000)
    }

    @Test("a side without the blobs capability skips the phase (--no-blobs)")
    func skippable() async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        await bobBlobs.want([await aliceBlobs.put(Fixtures.randomBytes(5_000, seed: 4))])
        let result = try await runWithBlobs(
            parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs),
            bobCapabilities: SyncCapabilities.all.subtracting(.blobs)
        )
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.bob.messagesAccepted == 5)
        #expect(result.bob.blobsWanted == 0)
        #expect(await bobBlobs.heldIDs.isEmpty)
    }

    @Test("a transfer cut in the middle stores no partial blob; the next session completes it")
    func interrupted() async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        let blob = Fixtures.randomBytes(60_000, seed: 5)
        let id = await aliceBlobs.put(blob)
        await bobBlobs.want([id])
        var configuration = SimulatedBLEConfiguration()
        configuration.disconnectAfterBytes = 30_000
        let first = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs), configuration: configuration)
        #expect(!first.bob.completed)
        #expect(first.bob.messagesAccepted == 5)
        #expect(await bobBlobs.heldIDs.isEmpty)
        #expect(await bobBlobs.storedLog.isEmpty)
        let second = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs))
        #expect(second.alice.completed && second.bob.completed)
        #expect(second.bob.blobsReceived == 1)
        #expect(await bobBlobs.held(id) == blob)
    }

    @Test("each side fetches what it lacks from the other")
    func bothWays() async throws {
        let feeds = try await followingFeed()
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        let forBob = await aliceBlobs.put(Fixtures.randomBytes(7_000, seed: 6))
        let forAlice = await bobBlobs.put(Fixtures.randomBytes(9_000, seed: 7))
        await bobBlobs.want([forBob])
        await aliceBlobs.want([forAlice])
        let result = try await runWithBlobs(parties, feeds: feeds, blobs: (aliceBlobs, bobBlobs))
        #expect(result.alice.completed && result.bob.completed)
        #expect(result.alice.blobsReceived == 1 && result.bob.blobsReceived == 1)
        #expect(await aliceBlobs.held(forAlice) != nil)
        #expect(await bobBlobs.held(forBob) != nil)
    }
}
