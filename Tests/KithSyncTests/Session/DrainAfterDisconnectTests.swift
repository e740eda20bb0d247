import KithSync
import Testing

@Suite("A dropped link still delivers what arrived", .timeLimit(.minutes(3)))
struct DrainAfterDisconnectTests {
    let parties = LinkParties()

    @Test("messages that reached the receiver before the drop are ingested, though its acks cannot be sent")
    func drainsBeforeGivingUp() async throws {
        let feed = try Fixtures.feedID(0xA0)
        let (alice, bob) = await Fixtures.sources(sharing: feed, count: 40) { Fixtures.randomBytes(900, seed: UInt64($0)) }
        var configuration = SimulatedBLEConfiguration(mtu: 182, bandwidthBitsPerSecond: 100_000)
        configuration.disconnectAfterBytes = 20_000
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let (connected, accepted) = await parties.establishContacts(central: central, peripheral: peripheral)
        let aliceLink = try connected.get()
        let bobLink = try accepted.get()
        async let bobReport = SyncSession(link: bobLink, source: bob, clock: peripheral).run()
        let aliceReport = await SyncSession(link: aliceLink, source: alice, clock: central).run()
        let bobResult = await bobReport
        let air = await central.statistics()
        #expect(!aliceReport.completed && !bobResult.completed)
        #expect(air.disconnected)
        // About 20 KB of ~940-byte messages crossed; at most the sealed frames around the cut are lost.
        #expect(bobResult.messagesAccepted >= 15)
        #expect(await bob.sequences(of: feed).count == bobResult.messagesAccepted)
    }
}
