import Crypto
import Foundation
import KithIdentity
import KithRatchet
import KithTestSupport
import Testing

/// Kith's published vectors for the hybrid handshake and the first messages of a session
/// (TestVectors/ratchet/hybrid-session.json). ML-KEM encapsulation is randomized in swift-crypto,
/// so the vectors record each encapsulation (ciphertext, shared secret); the test checks that
/// decapsulation with the fixed ML-KEM seed yields the recorded secret and replays everything else.
@Suite struct HybridSessionVectorTests {
    struct Party: Codable {
        var identity_seed, identity_public, identity_x25519_private, identity_x25519_public: String
        var dh_private, dh_public, pq_seed, pq_public, feed_id: String
    }
    struct Encapsulation: Codable { var ciphertext, shared_secret: String }
    struct Entropy: Codable { var x25519_private_keys: [String]; var encapsulations: [Encapsulation] }
    struct OneTimePrekey: Codable { var id: UInt32; var `private`, `public`: String }
    struct Handshake: Codable { var dh1, dh2, dh3, dh4, pq_shared_secret, master_secret: String }
    struct Message: Codable {
        var sender, feed_id, audience, plaintext, nonce, associated_data, wire: String
        var sequence: UInt64
    }
    struct File: Codable {
        var description, generator, conventions: String
        var alice, bob: Party
        var bob_one_time_prekey: OneTimePrekey
        var alice_entropy, bob_entropy: Entropy
        var handshake: Handshake
        var messages: [Message]
    }

    static let url = TestPaths.kithVectors.appendingPathComponent("ratchet/hybrid-session.json")
    static let now: UInt64 = 1_800_000_000
    static let script: [(sender: String, text: String)] = [
        ("alice", "Hi Bob, it's Alice. We met at the market."),
        ("alice", "Second message before any reply."),
        ("bob", "Hi Alice! Got both."),
        ("alice", "Great, the ratchet turned."),
    ]

    static func hex(_ bytes: some Sequence<UInt8>) -> String { TestPaths.hexString(bytes) }
    static func bytes(_ text: String) throws -> [UInt8] { try #require(TestPaths.hex(text)) }

    static func party(_ p: TestParty) throws -> Party {
        Party(
            identity_seed: hex(p.identitySeed), identity_public: hex(p.keys.identityKey.publicKey.rawRepresentation),
            identity_x25519_private: hex(p.keys.identityDHKey.rawRepresentation),
            identity_x25519_public: hex(p.keys.identityDHKey.publicKey.rawRepresentation),
            dh_private: hex(p.dhPrivate), dh_public: hex(p.signedPrekeyPublic),
            pq_seed: hex(p.pqSeed), pq_public: hex(p.keys.pqKey.publicKey.rawRepresentation), feed_id: p.feedID
        )
    }

    static func entropy(_ script: ScriptedEntropy.Script) -> Entropy {
        Entropy(
            x25519_private_keys: script.x25519Keys.map { hex($0) },
            encapsulations: script.encapsulations.map { Encapsulation(ciphertext: hex($0.ciphertext), shared_secret: hex($0.sharedSecret)) }
        )
    }

    static func script(_ entropy: Entropy) throws -> ScriptedEntropy.Script {
        ScriptedEntropy.Script(
            x25519Keys: try entropy.x25519_private_keys.map { try bytes($0) },
            encapsulations: try entropy.encapsulations.map { (try bytes($0.ciphertext), try bytes($0.shared_secret)) }
        )
    }

    /// Runs the scripted conversation; returns the messages produced.
    static func run(aliceEntropy: ScriptedEntropy, bobEntropy: ScriptedEntropy, oneTimeKey: Curve25519.KeyAgreement.PrivateKey) throws -> [Message] {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let prekeys = InMemoryPrekeyStore()
        try prekeys.insert(id: 1, privateKey: oneTimeKey, forPeer: alice.feed)
        let oneTime = OneTimePrekeyPublic(id: 1, publicKey: Array(oneTimeKey.publicKey.rawRepresentation))
        var aliceSession = try RatchetSession.initiate(local: alice.keys, bundle: try bob.bundle(oneTimePrekey: oneTime), entropy: aliceEntropy)
        var bobSession: RatchetSession?
        var sequences = ["alice": UInt64(1), "bob": UInt64(1)]
        var messages: [Message] = []
        for (sender, text) in script {
            let (from, to) = sender == "alice" ? (alice, bob) : (bob, alice)
            let sequence = sequences[sender, default: 1]
            sequences[sender] = sequence + 1
            let context = try from.context(to: to, sequence: sequence)
            let wire: [UInt8]
            if sender == "alice" {
                (wire, aliceSession) = try aliceSession.encrypt(Array(text.utf8), context: context, entropy: aliceEntropy)
                if let session = bobSession {
                    let opened = try session.decrypt(wire, context: context, local: bob.keys, now: now, entropy: bobEntropy)
                    #expect(opened.plaintext == Array(text.utf8))
                    bobSession = opened.session
                } else {
                    let opened = try RatchetSession.respond(
                        local: bob.keys, peer: try alice.peer, prekeys: prekeys, wire: wire, context: context, now: now, entropy: bobEntropy
                    )
                    #expect(opened.plaintext == Array(text.utf8))
                    bobSession = opened.session
                }
            } else {
                let session = try #require(bobSession)
                let sent = try session.encrypt(Array(text.utf8), context: context, entropy: bobEntropy)
                wire = sent.wire
                bobSession = sent.session
                let opened = try aliceSession.decrypt(wire, context: context, local: alice.keys, now: now, entropy: aliceEntropy)
                #expect(opened.plaintext == Array(text.utf8))
                aliceSession = opened.session
            }
            let headerBytes = try DirectMessageWire.decode(wire).headerBytes
            messages.append(Message(
                sender: sender, feed_id: from.feedID, audience: context.audience, plaintext: text,
                nonce: hex(context.nonce), associated_data: hex(context.associatedData(headerBytes: headerBytes)),
                wire: hex(wire), sequence: sequence
            ))
        }
        return messages
    }

    static func handshake(alice: TestParty, bob: TestParty, ephemeral: [UInt8], oneTime: [UInt8], pqSecret: [UInt8]) throws -> Handshake {
        let ephemeralKey = try X25519Agreement.privateKey(ephemeral)
        let oneTimeKey = try X25519Agreement.privateKey(oneTime)
        let bobIdentity = try X25519Agreement.publicKey(Array(bob.keys.identityDHKey.publicKey.rawRepresentation))
        let bobSigned = try X25519Agreement.publicKey(bob.signedPrekeyPublic)
        let dh = [
            try X25519Agreement.sharedSecret(alice.keys.identityDHKey, bobSigned),
            try X25519Agreement.sharedSecret(ephemeralKey, bobIdentity),
            try X25519Agreement.sharedSecret(ephemeralKey, bobSigned),
            try X25519Agreement.sharedSecret(ephemeralKey, oneTimeKey.publicKey),
        ]
        let master = RatchetKDF.x3dhMasterSecret(dhOutputs: dh, pqSharedSecret: pqSecret, initiatorFeedID: alice.feedID, responderFeedID: bob.feedID)
        return Handshake(dh1: hex(dh[0]), dh2: hex(dh[1]), dh3: hex(dh[2]), dh4: hex(dh[3]), pq_shared_secret: hex(pqSecret), master_secret: hex(master))
    }

    @Test func publishedSessionVectorsReplay() throws {
        let file = try JSONDecoder().decode(File.self, from: Data(contentsOf: Self.url))
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        #expect(try Self.party(alice).pq_public == file.alice.pq_public)
        #expect(try Self.party(bob).identity_x25519_public == file.bob.identity_x25519_public)
        #expect(alice.feedID == file.alice.feed_id && bob.feedID == file.bob.feed_id)
        // Every recorded encapsulation decapsulates to the recorded secret under the recipient's seed.
        for (recipient, entropy) in [(bob, file.alice_entropy), (alice, file.bob_entropy)] {
            for encapsulation in entropy.encapsulations {
                let secret = try recipient.keys.pqKey.decapsulate(try Self.bytes(encapsulation.ciphertext))
                #expect(Self.hex(secret.withUnsafeBytes { Array($0) }) == encapsulation.shared_secret)
            }
        }
        let oneTime = try Self.bytes(file.bob_one_time_prekey.private)
        let recomputed = try Self.handshake(
            alice: alice, bob: bob, ephemeral: try Self.bytes(file.alice_entropy.x25519_private_keys[0]), oneTime: oneTime,
            pqSecret: try Self.bytes(file.alice_entropy.encapsulations[0].shared_secret)
        )
        #expect(recomputed.master_secret == file.handshake.master_secret)
        #expect(recomputed.dh4 == file.handshake.dh4)
        let messages = try Self.run(
            aliceEntropy: ScriptedEntropy(replaying: try Self.script(file.alice_entropy)),
            bobEntropy: ScriptedEntropy(replaying: try Self.script(file.bob_entropy)),
            oneTimeKey: try X25519Agreement.privateKey(oneTime)
        )
        #expect(messages.count == file.messages.count)
        for (produced, published) in zip(messages, file.messages) {
            #expect(produced.wire == published.wire)
            #expect(produced.associated_data == published.associated_data)
            #expect(produced.nonce == published.nonce)
        }
    }

    /// Regenerates the file when KITH_WRITE_VECTORS=1 (new random encapsulations each time).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["KITH_WRITE_VECTORS"] == "1"))
    func writePublishedSessionVectors() throws {
        let alice = try Fixtures.alice(), bob = try Fixtures.bob()
        let oneTimeRaw = Array(SHA256.hash(data: Array("bob one-time prekey 1".utf8)))
        let oneTime = try X25519Agreement.privateKey(oneTimeRaw)
        let aliceEntropy = ScriptedEntropy(), bobEntropy = ScriptedEntropy()
        let messages = try Self.run(aliceEntropy: aliceEntropy, bobEntropy: bobEntropy, oneTimeKey: oneTime)
        let aliceScript = aliceEntropy.recorded
        let file = File(
            description: "Hybrid X3DH (X25519 + ML-KEM-768) and the first Double Ratchet messages of a Kith direct-message session. See docs/ratchet.md.",
            generator: "swift test --filter writePublishedSessionVectors with KITH_WRITE_VECTORS=1 (Tests/KithRatchetTests/HybridSessionVectorTests.swift)",
            conventions: "hex everywhere. x25519_private_keys are consumed in order (alice: X3DH ephemeral, first ratchet key, then one per DH ratchet step; bob: one per DH ratchet step). encapsulations are consumed in order (alice: X3DH to bob's pq_key, then one per DH ratchet step to bob's pq_key; bob: one per ratchet step to alice's pq_key). Parties' keys: identity_seed = SHA-256('<name> identity'), dh_private = SHA-256('<name> dh'), pq_seed = SHA-512('<name> pq'). wire = content_enc bytes before base64url.",
            alice: try Self.party(alice), bob: try Self.party(bob),
            bob_one_time_prekey: OneTimePrekey(id: 1, private: Self.hex(oneTimeRaw), public: Self.hex(oneTime.publicKey.rawRepresentation)),
            alice_entropy: Self.entropy(aliceScript), bob_entropy: Self.entropy(bobEntropy.recorded),
            handshake: try Self.handshake(
                alice: alice, bob: bob, ephemeral: aliceScript.x25519Keys[0], oneTime: oneTimeRaw,
                pqSecret: aliceScript.encapsulations[0].sharedSecret
            ),
            messages: messages
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(file) + Data("\n".utf8)).write(to: Self.url)
    }
}
