import Crypto
import KithRatchet

/// Benchmarks of the direct-message protocol: hybrid session establishment, message pairs on an
/// established chain, and DH (+ ML-KEM) ratchet steps.
enum RatchetSuite: BenchSuite {
    static let name = "ratchet"

    static func run(report: (BenchFigure) -> Void) async throws {
        let alice = try party()
        let bob = try party()
        let aliceAsPeer = try alice.peerIdentity
        let bobBundle = try PrekeyBundle(
            peer: try bob.peerIdentity, signedPrekey: Array(bob.dhKey.publicKey.rawRepresentation), oneTimePrekey: nil
        )
        let plaintext = [UInt8](repeating: 0x61, count: 100)

        // Establishment: initiate + first message + respond (X3DH, ML-KEM, first ratchet steps), both sides.
        let rounds = 200
        let prekeys = InMemoryPrekeyStore()
        var batch = try prekeys.generateOneTimePrekeys(count: rounds, forPeer: alice.feed)
        var sequence: UInt64 = 0
        let establishCPUStart = ProcessCPUClock.seconds()
        let establishSeconds = try BenchClock.seconds {
            for _ in 0..<rounds {
                sequence += 1
                let bundle = try PrekeyBundle(peer: bobBundle.peer, signedPrekey: bobBundle.signedPrekey, oneTimePrekey: batch.takeFirst())
                let session = try RatchetSession.initiate(local: alice, bundle: bundle)
                let context = try DirectMessageContext.direct(from: alice.feedID, to: bob.feedID, sequence: sequence)
                let sent = try session.encrypt(plaintext, context: context)
                _ = try RatchetSession.respond(
                    local: bob, peer: aliceAsPeer, prekeys: prekeys, wire: sent.wire, context: context, now: 1
                )
            }
        }
        let establishCPUSeconds = ProcessCPUClock.seconds() - establishCPUStart
        report(BenchFigure(name: "ratchet.establish_both_sides_ms", value: establishSeconds / Double(rounds) * 1000, unit: "ms"))
        // CPU time of the same rounds: the "one core" figure, independent of other load.
        report(BenchFigure(name: "ratchet.establish_both_sides_cpu_ms", value: establishCPUSeconds / Double(rounds) * 1000, unit: "ms"))

        // An established session pair.
        var aliceSession = try RatchetSession.initiate(local: alice, bundle: bobBundle)
        let firstContext = try DirectMessageContext.direct(from: alice.feedID, to: bob.feedID, sequence: 0)
        let first = try aliceSession.encrypt(plaintext, context: firstContext)
        aliceSession = first.session
        let emptyPrekeys = InMemoryPrekeyStore()
        var bobSession = try RatchetSession.respond(
            local: bob, peer: aliceAsPeer, prekeys: emptyPrekeys, wire: first.wire, context: firstContext, now: 1
        ).session
        let reply = try bobSession.encrypt(plaintext, context: try DirectMessageContext.direct(from: bob.feedID, to: alice.feedID, sequence: 0))
        bobSession = reply.session
        aliceSession = try aliceSession.decrypt(
            reply.wire, context: try DirectMessageContext.direct(from: bob.feedID, to: alice.feedID, sequence: 0), local: alice, now: 1
        ).session

        // Encrypt + decrypt pairs of 100-byte messages on one chain (no ratchet step).
        var chainSequence: UInt64 = 1
        func pair() throws {
            let context = try DirectMessageContext.direct(from: alice.feedID, to: bob.feedID, sequence: chainSequence)
            chainSequence += 1
            let sent = try aliceSession.encrypt(plaintext, context: context)
            aliceSession = sent.session
            bobSession = try bobSession.decrypt(sent.wire, context: context, local: bob, now: 1).session
        }
        let pairsPerSecond = try BenchClock.rate(pair)
        report(BenchFigure(name: "ratchet.encrypt_decrypt_pairs_per_s", value: pairsPerSecond, unit: "ops/s"))
        let pairsPerCPUSecond = try ProcessCPUClock.rate(minimumSeconds: 1.0, pair)
        report(BenchFigure(name: "ratchet.encrypt_decrypt_pairs_per_cpu_s", value: pairsPerCPUSecond, unit: "ops/cpu-s"))

        // DH + ML-KEM ratchet steps: alternate senders so every message starts a new chain.
        var aliceTurn = true
        var stepSequence: UInt64 = 1_000_000
        let stepsPerSecond = try BenchClock.rate(minimumSeconds: 1.0) {
            stepSequence += 1
            if aliceTurn {
                let context = try DirectMessageContext.direct(from: alice.feedID, to: bob.feedID, sequence: stepSequence)
                let sent = try aliceSession.encrypt(plaintext, context: context)
                aliceSession = sent.session
                bobSession = try bobSession.decrypt(sent.wire, context: context, local: bob, now: 1).session
            } else {
                let context = try DirectMessageContext.direct(from: bob.feedID, to: alice.feedID, sequence: stepSequence)
                let sent = try bobSession.encrypt(plaintext, context: context)
                bobSession = sent.session
                aliceSession = try aliceSession.decrypt(sent.wire, context: context, local: alice, now: 1).session
            }
            aliceTurn.toggle()
        }
        report(BenchFigure(name: "ratchet.dh_ratchet_step_ms", value: 1000 / stepsPerSecond, unit: "ms"))

        let sessionBytes = aliceSession.serialized.count
        report(BenchFigure(name: "ratchet.session_state_bytes", value: Double(sessionBytes), unit: "bytes"))
        report(BenchFigure(name: "ratchet.prekey_message_overhead_bytes", value: Double(first.wire.count - plaintext.count), unit: "bytes"))
    }

    private static func party() throws -> LocalIdentityKeys {
        try LocalIdentityKeys(
            identityKey: Curve25519.Signing.PrivateKey(),
            dhKey: Curve25519.KeyAgreement.PrivateKey(),
            pqKey: try MLKEM768.PrivateKey()
        )
    }
}
