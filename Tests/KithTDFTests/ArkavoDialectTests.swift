import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithTDF

/// The Arkavo/OpenTDFKit dialect (issue 26 item 7): Kith reads the files the Arkavo app writes (OpenTDFKit at the
/// revision the app pins and at its head) and writes files the app's reader opens. The app's files come from the
/// independent Python model (`Interop/tdf/opentdfkit_model.py`), published in `TestVectors/nanotdf/arkavo-app-files-v1.json`.
@Suite struct ArkavoDialectTests {
    static let appFiles = TestPaths.kithVectors.appendingPathComponent("nanotdf/arkavo-app-files-v1.json")

    static func appVectors() throws -> [JSONObject] {
        let root = try CanonicalJSON.parse(Array(try Data(contentsOf: appFiles)))
        return try #require(root.objectValue?["vectors"]?.arrayValue).compactMap(\.objectValue)
    }

    static func hex(_ object: JSONObject, _ key: String) throws -> [UInt8] {
        let text = try #require(object[key]?.stringValue)
        return try #require(TestPaths.hex(text))
    }

    static func key(_ object: JSONObject) throws -> NanoTDF.PrivateKey {
        try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: try hex(object, "recipient_private_key_scalar_hex"))
    }

    @Test func theAppsFilesOpenAndTheBindingIsReportedNotDropped() throws {
        let vectors = try Self.appVectors()
        #expect(vectors.count == 2)
        for vector in vectors {
            let nano = try NanoTDF(parsing: try Self.hex(vector, "nanotdf_hex"), options: NanoTDFDialect.arkavo.readOptions)
            let result = try nano.decrypt(usingAnyOf: [try Self.key(vector)], dialect: .arkavo)
            let expected = try #require(vector["plaintext_utf8"]?.stringValue)
            #expect(result.plaintext == Array(expected.utf8))
            #expect(try nano.dataKey(using: try Self.key(vector), saltOf: result.saltVersion).withUnsafeBytes { Array($0) }
                == (try Self.hex(vector, "dek_hex")))
            switch vector["opentdfkit_revision"]?.stringValue {
            case "d8ffeff":
                // L1M, locator protocol 0x0F with the base58 profile id, salt SHA-256("L1M"), random binding nonce.
                #expect(nano.header.version == .v13 && nano.header.kas.scheme == .sharedResourceDirectory)
                #expect(nano.header.kas.body.count == 44)
                #expect(result.saltVersion == .v13)
                guard case .unverified = result.binding else { Issue.record("a random-nonce binding passed as verified"); continue }
            default:
                // L1L without a recipient key, salt SHA-256("L1L"), zero-nonce binding.
                #expect(nano.header.version == .v12 && nano.header.recipientPublicKey == nil)
                #expect(result.saltVersion == .v12 && result.binding == .verified)
            }
        }
    }

    /// Without the dialect (before issue 26 item 7) Kith refused every file of the Arkavo app.
    @Test func theSDKDialectCannotOpenTheAppsFiles() throws {
        for vector in try Self.appVectors() {
            let nano = try NanoTDF(parsing: try Self.hex(vector, "nanotdf_hex"))
            #expect(throws: NanoTDFError.policyBindingMismatch) { try nano.decrypt(usingAnyOf: [try Self.key(vector)], dialect: .sdk) }
        }
    }

    @Test func anL1MHeaderPicksItsKeyAndRefusesWhenWeLackIt() throws {
        let vector = try #require(try Self.appVectors().first)
        let nano = try NanoTDF(parsing: try Self.hex(vector, "nanotdf_hex"))
        let other = try NanoTDF.PrivateKey(generatingOn: .secp256r1)
        let result = try nano.decrypt(usingAnyOf: [other, try Self.key(vector), other], dialect: .arkavo)
        #expect(result.keyIndex == 1)
        let named = try Self.hex(vector, "recipient_public_key_compressed_hex")
        #expect(throws: NanoTDFError.recipientKeyNotHeld(recipientKey: named)) { try nano.decrypt(usingAnyOf: [other], dialect: .arkavo) }
        #expect(throws: NanoTDFError.noDecryptionKey) { try nano.decrypt(usingAnyOf: [], dialect: .arkavo) }
    }

    @Test func anL1LFileWithoutARecipientKeyTriesEachKey() throws {
        let vector = try #require(try Self.appVectors().last)
        let nano = try NanoTDF(parsing: try Self.hex(vector, "nanotdf_hex"))
        let others = try (0..<3).map { _ in try NanoTDF.PrivateKey(generatingOn: .secp256r1) }
        #expect(try nano.decrypt(usingAnyOf: others + [try Self.key(vector)], dialect: .arkavo).keyIndex == 3)
        #expect(throws: NanoTDFError.authenticationFailed(field: "payload")) { try nano.decrypt(usingAnyOf: others, dialect: .arkavo) }
    }

    @Test func tamperingIsRefusedOrReported() throws {
        let vector = try #require(try Self.appVectors().last)
        let bytes = try Self.hex(vector, "nanotdf_hex")
        let key = try Self.key(vector)
        var payload = bytes
        payload[payload.count - 20] ^= 0x01
        #expect(throws: NanoTDFError.authenticationFailed(field: "payload")) {
            try NanoTDF(parsing: payload).decrypt(usingAnyOf: [key], dialect: .arkavo)
        }
        // A changed policy still decrypts (OpenTDFKit does not authenticate it otherwise), but its binding fails.
        let policy = Array(try #require(vector["policy_utf8"]?.stringValue).utf8)
        var changed = bytes
        let at = try #require(Self.firstRange(of: policy, in: bytes))
        changed[at + 2] ^= 0x01
        let result = try NanoTDF(parsing: changed).decrypt(usingAnyOf: [key], dialect: .arkavo)
        guard case .unverified = result.binding else { Issue.record("a changed policy was reported verified"); return }
    }

    static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }
}
