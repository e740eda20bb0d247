import Testing
@testable import KithTDF

/// Every fixture of `upstream/` parses (and rewrites byte for byte) or is rejected, as its README says.
@Suite struct UpstreamFixtureTests {
    static let valid: [(String, NanoTDF.ECDSABindingEncoding, Bool)] = [
        ("opentdf-platform__sdk__nanotdfspec.ntdf", .fixed, true),
        ("opentdf-platform__examples__cmd__testdata__nano-valid.ntdf", .lengthPrefixed, true),
        ("opentdf-java-sdk__FuzzingInputs__fuzzNanoTDF__sample.ntdf", .lengthPrefixed, true),
        ("opentdf-java-sdk__test-resources__javasdknanotdf.ntdf", .lengthPrefixed, false),
        ("opentdf-client-cpp__tests__data__valid_nanotdf.ntdf", .lengthPrefixed, true),
        ("opentdf-client-cpp__tests__data__old_ver_nanotdf.ntdf", .lengthPrefixed, true),
        ("opentdf-client-cpp__test_nano_tdf_is_valid__sample1.ntdf", .lengthPrefixed, true),
        ("opentdf-client-cpp__test_nano_tdf_is_valid__with_signature.ntdf", .lengthPrefixed, true),
        ("opentdf-web-sdk__fixtures__nanotdf-spec-embedded-example.ntdf", .fixed, true),
        ("opentdf-web-sdk__fixtures__nanotdf-spec-plain-embedded-example.ntdf", .fixed, false),
    ]

    @Test(arguments: UpstreamFixtureTests.valid.map(\.0))
    func validFixtureParsesAndRewrites(name: String) throws {
        let entry = try #require(Self.valid.first { $0.0 == name })
        let bytes = try TDFVectors.file("upstream/" + name)
        let nano = try NanoTDF(parsing: bytes, options: NanoTDF.ReadOptions(ecdsaBindingEncoding: entry.1))
        #expect(nano.serialized == bytes)
        if entry.2 {
            try nano.verifyPolicyBinding()
        } else {
            #expect(throws: NanoTDFError.policyBindingMismatch) { try nano.verifyPolicyBinding() }
        }
    }

    @Test func cppSignatureVerifies() throws {
        let nano = try NanoTDF(parsing: try TDFVectors.file("upstream/opentdf-client-cpp__test_nano_tdf_is_valid__with_signature.ntdf"))
        try nano.verifySignature()
    }

    @Test func badMagicIsRejected() throws {
        #expect(throws: NanoTDFError.badMagic(bytes: [0x4C, 0x30, 0xCC])) {
            try NanoTDF(parsing: try TDFVectors.file("upstream/opentdf-client-cpp__test_nano_tdf_is_valid__bad_magic.ntdf"))
        }
        #expect(throws: NanoTDFError.badMagic(bytes: [0x4C, 0x4C, 0x01])) {
            try NanoTDF(parsing: try TDFVectors.file("upstream/opentdf-client-cpp__tests__data__invalid_nanotdf.ntdf"))
        }
    }

    @Test func truncatedSignatureIsRejected() throws {
        let bytes = try TDFVectors.file("upstream/opentdf-client-cpp__test_nano_tdf_is_valid__invalid_with_signature.ntdf")
        do {
            _ = try NanoTDF(parsing: bytes)
            Issue.record("a truncated signature parsed")
        } catch {
            guard case .truncated = error else { Issue.record("expected truncated, got \(error)"); return }
        }
    }
}
