import KithCanonical
import KithTestSupport
import Testing
@testable import KithTDF

/// Kith's own NanoTDF vectors (`TestVectors/nanotdf/kith-dialect-v1.json`): deterministic keys and IVs,
/// regenerated with `KITH_WRITE_VECTORS=1`, checked byte for byte and decrypted from the file alone.
@Suite struct PublishedVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("nanotdf/kith-dialect-v1.json")

    struct Case {
        let name: String
        let version: NanoTDF.Version
        let policy: NanoTDF.EncryptionConfiguration.PolicyInput
        let kas: NanoTDF.ResourceLocator
        let iv: [UInt8]
        let plaintext: String
    }

    static func scalar(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 31) + [0x01] }

    static func cases() throws -> [Case] {
        let policy = Array(#"{"uuid":"00000000-0000-4000-8000-000000000000","body":{"dataAttributes":[],"dissem":[]}}"#.utf8)
        let poolKey = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: scalar(0x21))
        let kid = OneTimeKeyID(compressedPublicKey: poolKey.publicKey.compressedRepresentation).bytes
        return [
            Case(name: "kith-l1l-gmac-encrypted-policy-aes256gcm128", version: .v12, policy: .encrypted(policy),
                 kas: try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example.com"), iv: [0x00, 0x00, 0x01],
                 plaintext: "Kith one-time message"),
            Case(name: "kith-one-time-pool-key-plaintext-policy", version: .v12, policy: .plaintext(policy),
                 kas: try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: "kith", identifier: kid),
                 iv: [0xA1, 0xB2, 0xC3], plaintext: "sent to pool key"),
            Case(name: "kith-l1m-gmac-encrypted-policy", version: .v13, policy: .encrypted(policy),
                 kas: try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example.com"), iv: [0xFF, 0xFF, 0xFE],
                 plaintext: "L1M salts HKDF with SHA256(\"L1M\")"),
        ]
    }

    static func generate() throws -> JSONValue {
        var vectors = [JSONValue]()
        let recipient = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: scalar(0x21))
        for (index, item) in try cases().enumerated() {
            let ephemeral = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: scalar(0x40 + UInt8(index)))
            let nano = try NanoTDF.encrypt(
                Array(item.plaintext.utf8), to: recipient.publicKey,
                configuration: .init(kas: item.kas, policy: item.policy, version: item.version),
                ephemeralKey: ephemeral, iv: item.iv)
            var object = JSONObject()
            object["name"] = .string(item.name)
            object["recipient_private_key_scalar_hex"] = .string(TestPaths.hexString(scalar(0x21)))
            object["recipient_public_key_compressed_hex"] = .string(TestPaths.hexString(recipient.publicKey.compressedRepresentation))
            object["ephemeral_private_key_scalar_hex"] = .string(TestPaths.hexString(scalar(0x40 + UInt8(index))))
            object["hkdf_salt_hex"] = .string(TestPaths.hexString(item.version.hkdfSalt))
            object["dek_hex"] = .string(TestPaths.hexString(try nano.dataKey(using: recipient).withUnsafeBytes { Array($0) }))
            object["gcm_nonce12_hex"] = .string(TestPaths.hexString([UInt8](repeating: 0, count: 9) + item.iv))
            object["plaintext_utf8"] = .string(item.plaintext)
            object["header_hex"] = .string(TestPaths.hexString(nano.header.serialized))
            object["nanotdf_hex"] = .string(TestPaths.hexString(nano.serialized))
            vectors.append(.object(object))
        }
        var root = JSONObject()
        root["dialect"] = .string("kith-nanotdf-1: L1L (or L1M), nonce 00x9||IV3, binding SHA256(policy content)[-8:], encrypted policy = ct||tag under nonce 00x12, AES-256-GCM-128; see docs/TDF.md")
        root["vectors"] = .array(vectors)
        return .object(root)
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let published = try TDFVectors.published(at: Self.url, generated: try Self.generate())
        #expect(published.count == 3)
        for object in published {
            let hex = { (key: String) throws -> [UInt8] in
                let text = try #require(object[key]?.stringValue)
                return try #require(TestPaths.hex(text))
            }
            let key = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: try hex("recipient_private_key_scalar_hex"))
            let nano = try NanoTDF(parsing: try hex("nanotdf_hex"))
            #expect(try nano.decrypt(using: key) == Array(try #require(object["plaintext_utf8"]?.stringValue).utf8))
        }
    }
}
