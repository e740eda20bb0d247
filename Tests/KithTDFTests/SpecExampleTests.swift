import Crypto
import KithTestSupport
import Testing
@testable import KithTDF

/// The opentdf/spec §6 examples (reference §2.2): fixed `r ‖ s` bindings and the LEGACY raw-IV payload.
@Suite struct SpecExampleTests {
    static let fixed = NanoTDF.ReadOptions(ecdsaBindingEncoding: .fixed)

    @Test(arguments: [
        ("derived/opentdf-spec-6.1-basic-example.ntdf", "671e094b808e8d51b816581ab65a4aec02906e28f81159c4210b93086a78a163"),
        ("derived/opentdf-spec-6.2-no-signature-example.ntdf", "43b4bdf463d0f7e2d1cf7159f514905304b6265b994fb1df7da7c00e596532fb"),
    ])
    func knownAnswers(file: String, dekHex: String) throws {
        let bytes = try TDFVectors.file(file)
        let nano = try NanoTDF(parsing: bytes, options: Self.fixed)
        #expect(nano.serialized == bytes)
        let vector = try #require(try TDFVectors.json("derived/opentdf-spec-examples-derived.json").first {
            ($0["file"] as? String).map { file.hasSuffix($0) } ?? false
        })
        let key = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: try TDFVectors.hex(vector, "recipient_private_key_scalar_hex"))
        #expect(key.publicKey.compressedRepresentation == (try TDFVectors.hex(vector, "recipient_public_key_compressed_hex")))
        #expect(nano.header.ephemeralPublicKey == (try TDFVectors.hex(vector, "ephemeral_public_key_compressed_hex")))
        #expect(nano.header.policy.body.bindingMessage == (try TDFVectors.hex(vector, "policy_body_hex")))
        #expect(try nano.dataKey(using: key).withUnsafeBytes { Array($0) } == TestPaths.hex(dekHex))
        #expect(nano.payload.iv == (try TDFVectors.hex(vector, "iv3_hex")))
        #expect(nano.payload.ciphertext == (try TDFVectors.hex(vector, "ciphertext_hex")))
        #expect(nano.payload.tag == (try TDFVectors.hex(vector, "tag_hex")))
        try nano.verifyPolicyBinding()
        if nano.signature != nil { try nano.verifySignature() }
        // LEGACY raw 3-byte GCM IV: Kith's dialect (00×9 ‖ IV) must refuse it, never return garbage.
        #expect(throws: NanoTDFError.authenticationFailed(field: "payload")) { try nano.decrypt(using: key) }
    }

    @Test func example61HasASignatureAndARemotePolicy() throws {
        let nano = try NanoTDF(parsing: try TDFVectors.file("derived/opentdf-spec-6.1-basic-example.ntdf"), options: Self.fixed)
        #expect(nano.header.hasSignature)
        #expect(nano.header.cipher == .aes256gcm64)
        guard case .remote(let locator) = nano.header.policy.body else { Issue.record("expected a remote policy"); return }
        #expect(locator.body == Array("kas.virtru.com/policy".utf8))
        var tampered = try TDFVectors.file("derived/opentdf-spec-6.1-basic-example.ntdf")
        tampered[tampered.count - 1] ^= 0x01
        let bad = try NanoTDF(parsing: tampered, options: Self.fixed)
        #expect(throws: NanoTDFError.invalidSignature) { try bad.verifySignature() }
    }

    @Test func knownSaltsAndWrongEncodingIsATypedError() throws {
        #expect(NanoTDF.Version.v12.hkdfSalt == TestPaths.hex("3de3ca1e50cf62d8b6aba603a96fca6761387a7ac86c3d3afe85ae2d1812edfc"))
        #expect(NanoTDF.Version.v13.hkdfSalt == TestPaths.hex("5878b49e2a825498d8e6570cb87b588c67a0052c6f5280e24edd89d91ae62fbb"))
        // Read with the default (length-prefixed) encoding, the spec's fixed r ‖ s is refused, not misread silently.
        let bytes = try TDFVectors.file("derived/opentdf-spec-6.2-no-signature-example.ntdf")
        #expect(throws: NanoTDFError.self) { try NanoTDF(parsing: bytes) }
    }
}
