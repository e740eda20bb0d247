import Crypto
import Foundation
import KithRatchet
import KithTestSupport
import Testing

/// Runs Kith's primitives with Signal's constants against libsignal's published values
/// (Tests/Vectors/signal-libsignal/signal_kdf_kat.json).
@Suite struct SignalKnownAnswerTests {
    struct ChainKeyVector: Decodable {
        var chain_key, expected_cipher_key, expected_mac_key, expected_iv_computed_not_published, expected_next_chain_key, note_v2_legacy: String
    }
    struct BobVector: Decodable {
        var bob_identity_private, bob_signed_prekey_private, alice_identity_public, alice_base_public: String
        var DH1_computed_not_published, DH2_computed_not_published, DH3_computed_not_published: String
        var expected_root_key_computed_not_published, expected_sender_chain_key: String
    }
    struct AliceVector: Decodable {
        var alice_identity_private, alice_base_private, bob_identity_public, bob_signed_prekey_public: String
        var expected_root_key_computed_not_published, expected_receiver_chain_key_for_bob_ratchet: String
    }
    struct File: Decodable {
        var chain_key_v3: ChainKeyVector
        var x3dh_v3_bob: BobVector
        var x3dh_v3_alice: AliceVector
    }

    static func load() throws -> File {
        try JSONDecoder().decode(File.self, from: TestPaths.officialVector("signal-libsignal/signal_kdf_kat.json"))
    }

    static func bytes(_ hex: String) throws -> [UInt8] { try #require(TestPaths.hex(hex)) }

    /// libsignal public keys carry a 0x05 type byte.
    static func signalPublic(_ hex: String) throws -> Curve25519.KeyAgreement.PublicKey {
        let raw = try bytes(hex)
        #expect(raw.first == 0x05)
        return try X25519Agreement.publicKey(Array(raw.dropFirst()))
    }

    static func signalX3DH(_ outputs: [[UInt8]]) -> [UInt8] {
        RatchetKDF.hkdf(
            ikm: [UInt8](repeating: 0xFF, count: 32) + outputs.flatMap { $0 },
            salt: [UInt8](repeating: 0, count: 32), info: Array("WhisperText".utf8), outputByteCount: 64
        )
    }

    @Test func chainKeyStep() throws {
        let vector = try Self.load().chain_key_v3
        let (seed, next) = RatchetKDF.chainStep(chainKey: try Self.bytes(vector.chain_key))
        #expect(TestPaths.hexString(next) == vector.expected_next_chain_key)
        let keys = RatchetKDF.hkdf(
            ikm: seed, salt: [UInt8](repeating: 0, count: 32), info: Array("WhisperMessageKeys".utf8), outputByteCount: 80
        )
        #expect(TestPaths.hexString(keys[0..<32]) == vector.expected_cipher_key)
        #expect(TestPaths.hexString(keys[32..<64]) == vector.expected_mac_key)
        #expect(TestPaths.hexString(keys[64..<80]) == vector.expected_iv_computed_not_published)
        // Negative: the legacy v2 HKDF output must not come out of an RFC 5869 HKDF.
        #expect(!vector.note_v2_legacy.contains(TestPaths.hexString(keys[0..<32])))
    }

    @Test func x3dhResponderSide() throws {
        let vector = try Self.load().x3dh_v3_bob
        let identity = try X25519Agreement.privateKey(try Self.bytes(vector.bob_identity_private))
        let signedPrekey = try X25519Agreement.privateKey(try Self.bytes(vector.bob_signed_prekey_private))
        let aliceIdentity = try Self.signalPublic(vector.alice_identity_public)
        let aliceBase = try Self.signalPublic(vector.alice_base_public)
        let dh1 = try X25519Agreement.sharedSecret(signedPrekey, aliceIdentity)
        let dh2 = try X25519Agreement.sharedSecret(identity, aliceBase)
        let dh3 = try X25519Agreement.sharedSecret(signedPrekey, aliceBase)
        #expect(TestPaths.hexString(dh1) == vector.DH1_computed_not_published)
        #expect(TestPaths.hexString(dh2) == vector.DH2_computed_not_published)
        #expect(TestPaths.hexString(dh3) == vector.DH3_computed_not_published)
        let secret = Self.signalX3DH([dh1, dh2, dh3])
        #expect(TestPaths.hexString(secret[0..<32]) == vector.expected_root_key_computed_not_published)
        #expect(TestPaths.hexString(secret[32..<64]) == vector.expected_sender_chain_key)
    }

    @Test func x3dhInitiatorSide() throws {
        let vector = try Self.load().x3dh_v3_alice
        let identity = try X25519Agreement.privateKey(try Self.bytes(vector.alice_identity_private))
        let base = try X25519Agreement.privateKey(try Self.bytes(vector.alice_base_private))
        let bobIdentity = try Self.signalPublic(vector.bob_identity_public)
        let bobSignedPrekey = try Self.signalPublic(vector.bob_signed_prekey_public)
        let secret = Self.signalX3DH([
            try X25519Agreement.sharedSecret(identity, bobSignedPrekey),
            try X25519Agreement.sharedSecret(base, bobIdentity),
            try X25519Agreement.sharedSecret(base, bobSignedPrekey),
        ])
        #expect(TestPaths.hexString(secret[0..<32]) == vector.expected_root_key_computed_not_published)
        #expect(TestPaths.hexString(secret[32..<64]) == vector.expected_receiver_chain_key_for_bob_ratchet)
    }
}
