import Crypto
import Dispatch
import Kith
import KithCanonical
import KithIdentity
import KithSync
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The figures of the sync issue, measured over the simulated BLE link at 200 kbit/s, MTU 244
/// (ATT MTU 247), 15 ms latency, counting ATT payload bytes on the air:
///
/// - `sync.time_vs_ideal`: virtual time of a 1,000-post session over its ideal
///   (bytes on the air × 8 / bandwidth);
/// - `sync.air_bytes_vs_envelopes` and `…_zstd`: bytes on the air (both directions, handshake,
///   requests, offers, acks included) over the sum of the envelope sizes, without and with zstd;
/// - `sync.delta_1_message_bytes`: bytes on the air of a whole session (IK handshake included)
///   when the peer lacks exactly one message;
/// - `sync.delta_1_message_bytes_all_capabilities`: the same with every capability in the Hello
///   (zstd, held ranges, blob phase with nothing to transfer), as `kith sync` runs;
/// - `sync.resume_resent_messages`: messages re-sent after a cut, by a restarted sender (held ranges: 0);
/// - `sync.blob_air_bytes_vs_blob`: bytes on the air of a session that moves one 100 KB blob, over its size;
/// - `sync.receiver_cpu_us_per_message`: process CPU time of the receiving side (transport,
///   opening, reassembly, hashing, ingest, acks) per message, with the sender's frames queued beforehand;
/// - `sync.store_*`: the store side of a session serving a 10-message delta from a
///   10,000-message feed (``SyncStoreAccess``).
enum SyncSuite: BenchSuite {
    static let name = "sync"

    /// The link: 200 kbit/s, MTU 244.
    static let bandwidth: Double = 200_000
    static let mtu = 244
    static let postCount = 1000

    static func run(report: (BenchFigure) -> Void) async throws {
        var generator = SplitMix64(seed: 1)
        let feed = try FeedID(rawBytes: [UInt8](repeating: 0xA0, count: 32))
        let contents = (0..<postCount).map { envelopeLikeJSON(sequence: $0, generator: &generator) }

        let plain = try await syncPosts(feed: feed, contents: contents, capabilities: [])
        report(BenchFigure(name: "sync.time_vs_ideal", value: plain.elapsedSeconds / plain.idealSeconds, unit: "ratio"))
        report(BenchFigure(name: "sync.air_bytes_vs_envelopes", value: plain.airBytesVsEnvelopes, unit: "ratio"))
        let zstd = try await syncPosts(feed: feed, contents: contents, capabilities: .all)
        report(BenchFigure(name: "sync.air_bytes_vs_envelopes_zstd", value: zstd.airBytesVsEnvelopes, unit: "ratio"))
        let delta = try await deltaSession(feed: feed, contents: contents)
        report(BenchFigure(name: "sync.delta_1_message_bytes", value: Double(delta), unit: "bytes"))
        let deltaAll = try await deltaSession(feed: feed, contents: contents, capabilities: .all)
        report(BenchFigure(name: "sync.delta_1_message_bytes_all_capabilities", value: Double(deltaAll), unit: "bytes"))
        let resent = try await resumedResends(feed: feed, contents: Array(contents.prefix(200)))
        report(BenchFigure(name: "sync.resume_resent_messages", value: Double(resent), unit: "messages"))
        let blob = try await blobSession()
        report(BenchFigure(name: "sync.blob_air_bytes_vs_blob", value: blob, unit: "ratio"))
        var samples: [Double] = []
        for _ in 0..<3 {
            samples.append(try await receiverCPU(feed: feed, contents: contents))
        }
        report(BenchFigure(name: "sync.receiver_cpu_us_per_message", value: samples.min() ?? 0, unit: "us"))
        try await SyncStoreAccess.run(report: report)
    }

    // MARK: Sessions

    private struct SessionOutcome: Sendable {
        var elapsedSeconds: Double
        var idealSeconds: Double
        var airBytesVsEnvelopes: Double
    }

    private static func linkConfiguration() -> SimulatedBLEConfiguration {
        SimulatedBLEConfiguration(mtu: mtu, bandwidthBitsPerSecond: bandwidth, latencySeconds: 0.015)
    }

    /// Alice holds 1,000 posts of one feed, Bob none; both follow it. One session, XX handshake.
    private static func syncPosts(feed: FeedID, contents: [[UInt8]], capabilities: SyncCapabilities) async throws -> SessionOutcome {
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        var envelopeBytes = 0
        for (sequence, content) in contents.enumerated() {
            envelopeBytes += InMemoryFeedSource.envelope(feed: feed, sequence: UInt32(sequence), content: content).count
            await alice.append(feed: feed, sequence: UInt32(sequence), content: content)
        }
        await alice.follow(feed)
        await bob.follow(feed)
        let (central, _, bobReport) = try await session(
            alice: alice, bob: bob, capabilities: capabilities, aliceKey: .init(), bobKey: .init(), bobKnown: false
        )
        guard bobReport.messagesAccepted == contents.count else { throw SyncBenchFailure.incomplete("\(bobReport)") }
        let statistics = await central.statistics()
        return SessionOutcome(
            elapsedSeconds: statistics.elapsedSeconds,
            idealSeconds: statistics.airTimeSeconds,
            airBytesVsEnvelopes: Double(statistics.bytesOnAir) / Double(envelopeBytes)
        )
    }

    /// After a full sync, Alice writes one post; the next session (IK: they are contacts) carries it.
    /// Both follow two feeds (Alice's and Bob's), as contacts do.
    private static func deltaSession(feed: FeedID, contents: [[UInt8]], capabilities: SyncCapabilities = []) async throws -> Int {
        let bobFeed = try FeedID(rawBytes: [UInt8](repeating: 0xB0, count: 32))
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for (sequence, content) in contents.enumerated() {
            await alice.append(feed: feed, sequence: UInt32(sequence), content: content)
            await bob.append(feed: feed, sequence: UInt32(sequence), content: content)
            await alice.append(feed: bobFeed, sequence: UInt32(sequence), content: content)
            await bob.append(feed: bobFeed, sequence: UInt32(sequence), content: content)
        }
        for source in [alice, bob] {
            await source.follow(feed)
            await source.follow(bobFeed)
        }
        await alice.append(feed: feed, sequence: UInt32(contents.count), content: contents[0])
        let (central, _, bobReport) = try await session(
            alice: alice, bob: bob, capabilities: capabilities, aliceKey: .init(), bobKey: .init(), bobKnown: true
        )
        guard bobReport.messagesAccepted == 1 else { throw SyncBenchFailure.incomplete("\(bobReport)") }
        return await central.statistics().bytesOnAir
    }

    private static func session(
        alice: InMemoryFeedSource, bob: InMemoryFeedSource, capabilities: SyncCapabilities,
        aliceKey: Curve25519.KeyAgreement.PrivateKey, bobKey: Curve25519.KeyAgreement.PrivateKey, bobKnown: Bool,
        configuration: SimulatedBLEConfiguration = linkConfiguration(),
        aliceOptions: SyncSessionOptions = SyncSessionOptions(), bobOptions: SyncSessionOptions = SyncSessionOptions(),
        requireCompletion: Bool = true
    ) async throws -> (SimulatedBLEEndpoint, SyncSessionReport, SyncSessionReport) {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        async let bobSide: SyncSessionReport = {
            let link = try await SecureLink.accept(
                over: peripheral,
                configuration: SecureLinkConfiguration(localStatic: bobKey, hello: SyncHello(capabilities: capabilities)) { _ in true }
            )
            return await SyncSession(link: link, source: bob, clock: peripheral, options: bobOptions).run()
        }()
        let link = try await SecureLink.connect(
            over: central,
            configuration: SecureLinkConfiguration(localStatic: aliceKey, hello: SyncHello(capabilities: capabilities)) { _ in true },
            responderStaticKey: bobKnown ? Array(bobKey.publicKey.rawRepresentation) : nil
        )
        let aliceReport = await SyncSession(link: link, source: alice, clock: central, options: aliceOptions).run()
        let bobReport = try await bobSide
        guard !requireCompletion || (aliceReport.completed && bobReport.completed) else {
            throw SyncBenchFailure.incomplete("alice \(aliceReport), bob \(bobReport)")
        }
        return (central, aliceReport, bobReport)
    }

    /// 200 posts; the first session is cut after 60 KB on the air; the sender then restarts
    /// (forgets acknowledgements) and resumes. Returns how many messages Bob received twice.
    private static func resumedResends(feed: FeedID, contents: [[UInt8]]) async throws -> Int {
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        for (sequence, content) in contents.enumerated() { await alice.append(feed: feed, sequence: UInt32(sequence), content: content) }
        await alice.follow(feed)
        await bob.follow(feed)
        let aliceKey = Curve25519.KeyAgreement.PrivateKey()
        let bobKey = Curve25519.KeyAgreement.PrivateKey()
        var cut = linkConfiguration()
        cut.disconnectAfterBytes = 60_000
        _ = try await session(alice: alice, bob: bob, capabilities: .all, aliceKey: aliceKey, bobKey: bobKey, bobKnown: true,
                              configuration: cut, requireCompletion: false)
        await alice.forgetAcknowledgements()
        let (_, _, bobReport) = try await session(alice: alice, bob: bob, capabilities: .all, aliceKey: aliceKey, bobKey: bobKey, bobKnown: true)
        guard await bob.sequences(of: feed).count == contents.count else { throw SyncBenchFailure.incomplete("\(bobReport)") }
        return bobReport.messagesDuplicate
    }

    /// One 100 KB blob wanted by Bob, nothing else to sync; bytes on the air over the blob size.
    private static func blobSession() async throws -> Double {
        var generator = SplitMix64(seed: 7)
        let blob = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let aliceBlobs = InMemoryBlobSource()
        let bobBlobs = InMemoryBlobSource()
        await bobBlobs.want([await aliceBlobs.put(blob)])
        let (central, _, bobReport) = try await session(
            alice: InMemoryFeedSource(), bob: InMemoryFeedSource(), capabilities: .all, aliceKey: .init(), bobKey: .init(), bobKnown: true,
            aliceOptions: SyncSessionOptions(blobSource: aliceBlobs), bobOptions: SyncSessionOptions(blobSource: bobBlobs)
        )
        guard bobReport.blobsReceived == 1 else { throw SyncBenchFailure.incomplete("\(bobReport)") }
        return Double(await central.statistics().bytesOnAir) / Double(blob.count)
    }

    /// Queues everything the sender would send (request, done, offer, 1,000 messages) on the link
    /// first, then times Bob's whole session alone: its CPU time is the receiving side's.
    private static func receiverCPU(feed: FeedID, contents: [[UInt8]]) async throws -> Double {
        let bob = InMemoryFeedSource()
        await bob.follow(feed)
        let aliceKey = Curve25519.KeyAgreement.PrivateKey()
        let bobKey = Curve25519.KeyAgreement.PrivateKey()
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: linkConfiguration())
        async let accepted = SecureLink.accept(
            over: peripheral,
            configuration: SecureLinkConfiguration(localStatic: bobKey, hello: SyncHello(capabilities: [])) { _ in true }
        )
        let alice = try await SecureLink.connect(
            over: central,
            configuration: SecureLinkConfiguration(localStatic: aliceKey, hello: SyncHello(capabilities: [])) { _ in true }
        )
        let bobLink = try await accepted
        // Alice holds the whole feed, so Bob has nothing to send back.
        // Feed ids travel blinded under the link's key (docs/sync.md 9b).
        let feedTag = SyncFeedBlinding(link: alice).blind(feed)
        try await alice.enqueue([.request(SyncRequest(feedTag: feedTag, haveSequence: UInt32(contents.count - 1))), .done])
        try await alice.enqueue([.offer(SyncOffer(feedTag: feedTag, haveSequence: UInt32(contents.count - 1), messageCount: UInt32(contents.count)))])
        for (sequence, content) in contents.enumerated().reversed() {
            let envelope = InMemoryFeedSource.envelope(feed: feed, sequence: UInt32(sequence), content: content)
            let body = MessageBody.encode(envelope: envelope, compressionNegotiated: false)
            let chunks = try MessageFragmenter.chunks(
                messageID: SyncMessageID(envelope: envelope), body: body, chunkDataLength: alice.layout.chunkDataLength
            )
            try await alice.enqueue(chunks.map(SyncFrame.chunk))
        }
        try await alice.flush()
        let before = processCPUSeconds()
        let report = await SyncSession(link: bobLink, source: bob, clock: peripheral).run()
        let cpu = processCPUSeconds() - before
        guard report.completed, report.messagesAccepted == contents.count else { throw SyncBenchFailure.incomplete("\(report)") }
        return cpu / Double(contents.count) * 1_000_000
    }

    // MARK: Helpers

    /// User + system CPU time of this process.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// A spec 3.1 envelope (canonical JSON, keys sorted) whose content is random ciphertext in
    /// base64url; with the in-memory source's 36-byte header the envelope is 600 bytes.
    private static func envelopeLikeJSON(sequence: Int, generator: inout SplitMix64) -> [UInt8] {
        func b64(_ count: Int) -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            return String((0..<count).map { _ in alphabet[Int(generator.next() % 64)] })
        }
        let feedID = "oK3f8kR2mNpLvXwY1cBdHtAeOsUiGjKlP0FyVnWqCm4"
        func json(content: String) -> String {
            "{\"audience\":\"contacts\",\"content_enc\":\"\(content)\",\"feed_id\":\"\(feedID)\","
                + "\"previous\":\"\(b64(43))\",\"sequence\":\(sequence),\"signature\":\"\(b64(86))\","
                + "\"timestamp\":\(1_760_000_000 + sequence * 37),\"type\":\"post\",\"version\":1}"
        }
        let skeleton = json(content: "").utf8.count
        return Array(json(content: b64(max(1, 600 - 36 - skeleton))).utf8)
    }

}

/// Why a sync benchmark could not produce its figure.
enum SyncBenchFailure: Error, CustomStringConvertible {
    case incomplete(String)

    var description: String {
        switch self {
        case .incomplete(let detail): "sync benchmark session did not complete: \(detail)"
        }
    }
}
