import Crypto
import Dispatch
import KithSync
import Synchronization

/// Benchmarks of the sync stack: Noise handshakes and transport sealing (wall clock), zstd on
/// envelope-like JSON, and full sessions over the simulated BLE link (air time = bytes on the air
/// × 8 / bandwidth, deterministic; and the wall-clock CPU cost of the whole stack).
enum SyncSuite: BenchSuite {
    static let name = "sync"

    static func run(report: (BenchFigure) -> Void) throws {
        // Noise handshakes, both sides in one process.
        let xx = try BenchClock.rate(minimumSeconds: 0.5) { try handshake(pattern: .xx) }
        report(BenchFigure(name: "sync.noise_xx_handshake_ms", value: 1000 / xx, unit: "ms"))
        let ik = try BenchClock.rate(minimumSeconds: 0.5) { try handshake(pattern: .ik) }
        report(BenchFigure(name: "sync.noise_ik_handshake_ms", value: 1000 / ik, unit: "ms"))

        // Seal + open of one full sealed frame at MTU 244 (225 plaintext bytes).
        var sender = try NoiseCipherState(key: [UInt8](repeating: 7, count: 32))
        var receiver = try NoiseCipherState(key: [UInt8](repeating: 7, count: 32))
        let plaintext = [UInt8](repeating: 0x42, count: 225)
        let frames = try BenchClock.rate(minimumSeconds: 0.5) {
            let sealed = try sender.encrypt(associatedData: [], plaintext: plaintext)
            _ = try receiver.decrypt(associatedData: [], ciphertext: sealed)
        }
        report(BenchFigure(name: "sync.seal_open_frames_per_s", value: frames, unit: "ops/s"))
        report(BenchFigure(name: "sync.seal_open_mb_per_s", value: frames * 225 / 1_000_000, unit: "MB/s"))

        // zstd level 1 on envelope-like JSON (random ciphertext in base64url, as real content is encrypted).
        var generator = SplitMix64(seed: 1)
        let envelopes = (0..<200).map { envelopeLikeJSON(sequence: $0, contentBytes: 200, generator: &generator) }
        let raw = envelopes.reduce(0) { $0 + $1.count }
        let compressed = try envelopes.reduce(0) { $0 + (try EnvelopeCompression.compress($1)).count + 5 }
        report(BenchFigure(name: "sync.zstd_ratio_envelope_600b", value: Double(compressed) / Double(raw), unit: "ratio"))

        // Frame layout efficiency per MTU.
        for mtu in [20, 182, 244, 509] {
            let layout = try FrameLayout(mtu: mtu)
            report(BenchFigure(name: "sync.layout_mtu\(mtu)_chunk_data_bytes", value: Double(layout.chunkDataLength), unit: "bytes"))
            report(BenchFigure(name: "sync.layout_mtu\(mtu)_efficiency", value: layout.chunkEfficiency, unit: "ratio"))
        }

        // 1,000 posts (~590-byte JSON envelopes + 36-byte toy header) from one feed, one session, 1 Mbit/s, 15 ms latency,
        // 17 bytes of radio overhead per frame; air time is bytes on the air × 8 / bandwidth.
        for (mtu, capabilities, label) in [
            (20, SyncCapabilities(), "mtu20"), (182, [], "mtu182"), (244, [], "mtu244"), (509, [], "mtu509"),
            (244, SyncCapabilities.zstdEnvelopes, "mtu244_zstd"),
        ] as [(Int, SyncCapabilities, String)] {
            let outcome = try blocking {
                try await syncPosts(count: 1000, mtu: mtu, capabilities: capabilities, envelopes: envelopes)
            }
            report(BenchFigure(name: "sync.posts1000_\(label)_airtime_s", value: outcome.airTimeSeconds, unit: "s"))
            report(BenchFigure(name: "sync.posts1000_\(label)_air_bytes", value: Double(outcome.airBytes), unit: "bytes"))
            report(BenchFigure(name: "sync.posts1000_\(label)_goodput_ratio", value: outcome.goodput, unit: "ratio"))
            report(BenchFigure(name: "sync.posts1000_\(label)_wall_msgs_per_s", value: 1000 / outcome.wallSeconds, unit: "ops/s"))
        }
    }

    private static func handshake(pattern: SecureLinkPattern) throws {
        let initiatorStatic = Curve25519.KeyAgreement.PrivateKey()
        let responderStatic = Curve25519.KeyAgreement.PrivateKey()
        var initiator = try NoiseHandshakeState(
            protocolName: pattern.protocolName, isInitiator: true, prologue: pattern.prologue,
            localStatic: initiatorStatic,
            remoteStatic: pattern == .ik ? Array(responderStatic.publicKey.rawRepresentation) : nil
        )
        var responder = try NoiseHandshakeState(
            protocolName: pattern.protocolName, isInitiator: false, prologue: pattern.prologue, localStatic: responderStatic
        )
        var initiatorTurn = true
        while !initiator.isComplete {
            if initiatorTurn {
                _ = try responder.readMessage(try initiator.writeMessage(payload: SyncHello().encoded))
            } else {
                _ = try initiator.readMessage(try responder.writeMessage(payload: SyncHello().encoded))
            }
            initiatorTurn.toggle()
        }
        _ = try initiator.transportCiphers()
        _ = try responder.transportCiphers()
    }

    private struct SessionOutcome: Sendable {
        var airTimeSeconds: Double
        var airBytes: Int
        var goodput: Double
        var wallSeconds: Double
    }

    private static func syncPosts(
        count: Int, mtu: Int, capabilities: SyncCapabilities, envelopes: [[UInt8]]
    ) async throws -> SessionOutcome {
        let feed = try SyncFeedID(bytes: [UInt8](repeating: 0xA0, count: 32))
        let alice = InMemoryFeedSource()
        let bob = InMemoryFeedSource()
        var envelopeBytes = 0
        for sequence in 0..<count {
            let content = envelopes[sequence % envelopes.count]
            envelopeBytes += content.count + 36
            await alice.append(feed: feed, sequence: UInt32(sequence), content: content)
        }
        await alice.follow(feed)
        await bob.follow(feed)
        let aliceKey = Curve25519.KeyAgreement.PrivateKey()
        let bobKey = Curve25519.KeyAgreement.PrivateKey()
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: SimulatedBLEConfiguration(
            mtu: mtu, bandwidthBitsPerSecond: 1_000_000, latencySeconds: 0.015, perFrameOverheadBytes: 17
        ))
        let start = ContinuousClock.now
        async let bobSide: SyncSessionReport = {
            let link = try await SecureLink.accept(
                over: peripheral,
                configuration: SecureLinkConfiguration(localStatic: bobKey, hello: SyncHello(capabilities: capabilities)) { _ in true }
            )
            return await SyncSession(link: link, source: bob, clock: peripheral).run()
        }()
        let link = try await SecureLink.connect(
            over: central,
            configuration: SecureLinkConfiguration(localStatic: aliceKey, hello: SyncHello(capabilities: capabilities)) { _ in true }
        )
        let aliceReport = await SyncSession(link: link, source: alice, clock: central).run()
        let bobReport = try await bobSide
        let elapsed = ContinuousClock.now - start
        guard aliceReport.completed, bobReport.completed, bobReport.messagesAccepted == count else {
            throw SyncBenchFailure.incomplete("\(bobReport)")
        }
        let statistics = await central.statistics()
        return SessionOutcome(
            airTimeSeconds: statistics.airTimeSeconds,
            airBytes: statistics.bytesOnAir,
            goodput: Double(envelopeBytes) / Double(statistics.bytesOnAir),
            wallSeconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
    }

    /// A JSON object shaped like a Kith envelope whose content is random ciphertext in base64url.
    private static func envelopeLikeJSON(sequence: Int, contentBytes: Int, generator: inout SplitMix64) -> [UInt8] {
        func b64(_ count: Int) -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            return String((0..<count).map { _ in alphabet[Int(generator.next() % 64)] })
        }
        let json = "{\"audience\":\"contacts\",\"author\":\"\(b64(43))\",\"content\":\"\(b64(contentBytes * 4 / 3))\","
            + "\"content_type\":\"post\",\"previous\":\"\(b64(43))\",\"sequence\":\(sequence),"
            + "\"signature\":\"\(b64(86))\",\"timestamp\":\(1_760_000_000_000 + sequence),\"version\":1}"
        return Array(json.utf8)
    }

    /// Runs async work from the synchronous suite entry point.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        guard let outcome = result.withLock({ $0 }) else { throw SyncBenchFailure.incomplete("no result") }
        return try outcome.get()
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
