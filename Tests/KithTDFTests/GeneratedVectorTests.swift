import Crypto
import KithTestSupport
import Testing
@testable import KithTDF

/// The MODERN-layout (Go SDK) vectors of `generated/`: parse, byte-exact rewrite, DEK, policy and payload.
@Suite struct GeneratedVectorTests {
    static let files = [
        "generated/generated-go-layout-gmac-aes256gcm96.ntdf",
        "generated/generated-go-layout-ecdsa-aes256gcm128.ntdf",
        "generated/generated-go-layout-gmac-aes256gcm64-emptyplaintext.ntdf",
    ]

    @Test func everyGeneratedVectorDecryptsAndMatchesItsIntermediates() throws {
        let vectors = try TDFVectors.json("generated/generated-go-layout-vectors.json")
        #expect(vectors.count == 3)
        for vector in vectors {
            let bytes = try TDFVectors.hex(vector, "nanotdf_hex")
            let nano = try NanoTDF(parsing: bytes)
            #expect(nano.serialized == bytes)
            #expect(nano.header.serialized == (try TDFVectors.hex(vector, "header_hex")))
            #expect(nano.payload.iv == (try TDFVectors.hex(vector, "iv3_hex")))
            #expect(nano.payload.tag.count == (vector["tag_bytes"] as? Int))
            #expect(NanoTDF.Version.v12.hkdfSalt == (try TDFVectors.hex(vector, "hkdf_salt_hex")))

            let key = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: try TDFVectors.hex(vector, "kas_private_key_scalar_hex"))
            #expect(key.publicKey.compressedRepresentation == (try TDFVectors.hex(vector, "kas_public_key_compressed_hex")))
            let dek = try nano.dataKey(using: key).withUnsafeBytes { Array($0) }
            #expect(dek == (try TDFVectors.hex(vector, "dek_hex")))

            try nano.verifyPolicyBinding()
            let plaintext = try nano.decrypt(using: key)
            #expect(plaintext == Array(try TDFVectors.string(vector, "plaintext_utf8").utf8))
            #expect(try nano.policy(using: key) == Array(try TDFVectors.string(vector, "policy_plaintext_utf8").utf8))
        }
    }

    @Test func filesEqualTheirJSONHex() throws {
        let vectors = try TDFVectors.json("generated/generated-go-layout-vectors.json")
        for (file, vector) in zip(Self.files, vectors) {
            #expect(try TDFVectors.file(file) == (try TDFVectors.hex(vector, "nanotdf_hex")))
        }
    }

    @Test func kasLocatorCarriesTheTwoByteKid() throws {
        let nano = try NanoTDF(parsing: try TDFVectors.file(Self.files[0]))
        #expect(nano.header.kas.scheme == .https)
        #expect(nano.header.kas.body == Array("kas.example.com".utf8))
        #expect(nano.header.kas.identifier == Array("e1".utf8))
        #expect(nano.header.cipher == .aes256gcm96)
    }
}
