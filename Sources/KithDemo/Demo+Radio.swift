import Kith
import Foundation
import KithFeed
import KithIdentity
import KithSync

extension Demo {
    /// What the radio step measured.
    public struct RadioSummary: Sendable {
        /// Messages Bob accepted over both sessions.
        public var delivered = 0
        /// Whether the first session was cut by the simulated disconnect.
        public var firstSessionInterrupted = false
        /// Bytes on the air over both sessions (ATT payloads, both directions).
        public var bytesOnAir = 0
        /// Sum of the canonical envelope sizes that had to cross.
        public var envelopeBytes = 0
        /// Simulated air time of both sessions, seconds.
        public var airSeconds = 0.0
        /// Bob's linked head of Alice's feed afterwards.
        public var bobHead: UInt32?
        /// Messages the resumed session left out because Bob already held them (ahead of the gap).
        public var skippedAsHeld = 0
        /// Messages Bob received twice over both sessions (exact resumption: 0).
        public var duplicates = 0
    }

    /// Step 8 of the tour: Alice and Bob (contacts after step 7) sync over a simulated BLE link
    /// at ATT MTU 185 and 100 kbit/s; the link drops halfway, the next session resumes.
    public static func runRadio(in directory: URL, posts: Int = 40, say: @Sendable (String) -> Void) async throws -> RadioSummary {
        let passphrase: @Sendable () throws(IdentityError) -> String = { "kith-demo-passphrase" }
        let alice = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("alice")), passphrase: passphrase)
        let bob = try await Account.open(home: AccountHome(directory: directory.appendingPathComponent("bob")), passphrase: passphrase)
        var summary = RadioSummary()

        say("")
        say("== 11. They meet again: sync over a (simulated) Bluetooth LE radio ==")
        for index in 1...posts {
            try await alice.publishing.post("Field note \(index): " + String(repeating: "the quick brown fox jumps over the lazy dog ", count: 8), audience: .contacts)
        }
        let bobBefore = try await bob.feed.headSequence(of: alice.feedID)
        let owed = try await alice.feed.export().enumerated().filter { index, _ in bobBefore.map { UInt32(index) > $0 } ?? true }
        summary.envelopeBytes = owed.reduce(0) { $0 + $1.element.count }
        say("Alice has \(owed.count) messages Bob lacks (\(summary.envelopeBytes) bytes of envelopes). Link: ATT MTU 185 (182-byte payloads), 100 kbit/s, uncompressed.")

        let cut = summary.envelopeBytes / 2
        var configuration = SimulatedBLEConfiguration(mtu: 182, bandwidthBitsPerSecond: 100_000)
        configuration.disconnectAfterBytes = cut
        let first = try await session(alice, bob, configuration)
        summary.firstSessionInterrupted = !first.report.completed
        summary.delivered += first.accepted
        summary.duplicates += first.duplicates
        summary.bytesOnAir += first.air.bytesOnAir
        summary.airSeconds += first.air.airTimeSeconds
        say("Session 1: the link dropped after \(first.air.bytesOnAir) bytes on the air; Bob kept \(first.accepted) verified messages (newest first), nothing half-stored.")

        let second = try await session(alice, bob, SimulatedBLEConfiguration(mtu: 182, bandwidthBitsPerSecond: 100_000))
        summary.delivered += second.accepted
        summary.duplicates += second.duplicates
        summary.skippedAsHeld = second.report.messagesSkippedAsHeld
        summary.bytesOnAir += second.air.bytesOnAir
        summary.airSeconds += second.air.airTimeSeconds
        summary.bobHead = try await bob.feed.headSequence(of: alice.feedID)
        say("Session 2 resumed: \(second.accepted) more messages; Bob declared the \(summary.skippedAsHeld) he already held ahead of the gap, so none was sent again (\(summary.duplicates) duplicates).")
        let ratio = Double(summary.bytesOnAir) / Double(max(summary.envelopeBytes, 1))
        say(String(format: "On the air: %d bytes for %d bytes of envelopes (%.2fx, handshakes, acks and encryption included), %.1f s at 100 kbit/s.",
                   summary.bytesOnAir, summary.envelopeBytes, ratio, summary.airSeconds))
        let readable = try await bob.feed.timeline(feed: alice.feedID, limit: 1000).filter { $0.content != nil }.count
        say("Bob now reads \(readable) of Alice's posts; a passive listener saw only encrypted frames.")
        return summary
    }

    private struct SessionOutcome {
        var report: SyncSessionReport
        var accepted: Int
        var duplicates: Int
        var air: SimulatedAirStatistics
    }

    /// Every capability but compression, so the bytes on the air compare with the envelopes
    /// themselves (zstd with the envelope dictionary would bring them below, see docs/sync.md).
    private static let demoHello = SyncHello(capabilities: SyncCapabilities.all.subtracting([.zstdEnvelopes, .zstdEnvelopeDictionary]))

    private static func session(_ alice: Account, _ bob: Account, _ configuration: SimulatedBLEConfiguration) async throws -> SessionOutcome {
        let (central, peripheral) = SimulatedBLELink.makePair(configuration: configuration)
        let aliceSource = alice.makeSyncSource()
        let bobSource = bob.makeSyncSource()
        let bobKey = bob.identity.dhKey
        async let bobSide: SyncSessionReport? = {
            guard let link = try? await SecureLink.accept(
                over: peripheral,
                configuration: SecureLinkConfiguration(localStatic: bobKey, hello: demoHello) { await bobSource.isContact(staticKey: $0) }
            ) else { return nil }
            return await SyncSession(link: link, source: bobSource, clock: peripheral).run()
        }()
        var aliceReport = SyncSessionReport()
        if let link = try? await SecureLink.connect(
            over: central,
            configuration: SecureLinkConfiguration(localStatic: alice.identity.dhKey, hello: demoHello) { await aliceSource.isContact(staticKey: $0) },
            responderStaticKey: Array(bob.identity.dhKey.publicKey.rawRepresentation)
        ) {
            aliceReport = await SyncSession(link: link, source: aliceSource, clock: central).run()
        }
        let bobReport = await bobSide
        return SessionOutcome(
            report: aliceReport, accepted: bobReport?.messagesAccepted ?? 0, duplicates: bobReport?.messagesDuplicate ?? 0,
            air: await central.statistics()
        )
    }
}
