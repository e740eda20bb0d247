import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithTDF

/// Files Kith writes for the Arkavo app's reader (`--dialect arkavo`), the published vectors of that direction
/// (`TestVectors/nanotdf/kith-to-arkavo-v1.json`, read by `Interop/tdf/opentdfkit_model.py` as the app's reader),
/// what the writer refuses, and hostile headers in the Arkavo layout.
@Suite struct ArkavoWriterTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("nanotdf/kith-to-arkavo-v1.json")
    static let policy = Array(#"{"attributes":[],"dissem":["kith"]}"#.utf8)

    static func scalar(_ byte: UInt8) -> [UInt8] { [UInt8](repeating: byte, count: 31) + [0x01] }

    static func generate() throws -> JSONValue {
        let recipient = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: scalar(0x32))
        let cases: [(String, String, [UInt8], String)] = [
            ("kith-to-arkavo-https-locator", "kas.arkavo.net", [0x0C, 0x0D, 0x0E], "hello Arkavo app, from Kith"),
            ("kith-to-arkavo-one-byte", "localhost/kas", [0xFF, 0x00, 0x01], "k"),
        ]
        var vectors = [JSONValue]()
        for (index, item) in cases.enumerated() {
            let ephemeral = try NanoTDF.PrivateKey(curve: .secp256r1, rawScalar: scalar(0x60 + UInt8(index)))
            let configuration = NanoTDF.EncryptionConfiguration.arkavoApp(
                kas: try NanoTDF.ResourceLocator(scheme: .https, body: item.1), policy: policy)
            let nano = try NanoTDF.encrypt(
                Array(item.3.utf8), to: recipient.publicKey, configuration: configuration, ephemeralKey: ephemeral, iv: item.2)
            var object = JSONObject()
            object["name"] = .string(item.0)
            object["recipient_private_key_scalar_hex"] = .string(TestPaths.hexString(scalar(0x32)))
            object["recipient_public_key_compressed_hex"] = .string(TestPaths.hexString(recipient.publicKey.compressedRepresentation))
            object["ephemeral_private_key_scalar_hex"] = .string(TestPaths.hexString(scalar(0x60 + UInt8(index))))
            object["hkdf_salt_hex"] = .string(TestPaths.hexString(NanoTDF.Version.v12.hkdfSalt))
            object["dek_hex"] = .string(TestPaths.hexString(try nano.dataKey(using: recipient, saltOf: .v12).withUnsafeBytes { Array($0) }))
            object["gcm_nonce12_hex"] = .string(TestPaths.hexString(item.2 + [UInt8](repeating: 0, count: 9)))
            object["plaintext_utf8"] = .string(item.3)
            object["nanotdf_hex"] = .string(TestPaths.hexString(nano.serialized))
            vectors.append(.object(object))
        }
        var root = JSONObject()
        root["about"] = .string(
            "NanoTDF files Kith writes with --dialect arkavo for the Arkavo app's reader (OpenTDFKit d8ffeff): L1M header with "
                + "the recipient key, https locator, HKDF salt SHA-256(\"L1L\"), nonce IV||00x9, binding = AES-GCM tag[0:8] under the "
                + "zero nonce over u16 length||policy, AES-256-GCM 128-bit tag. See docs/TDF.md, Dialects.")
        root["vectors"] = .array(vectors)
        return .object(root)
    }

    @Test func publishedVectorsMatchAndOpen() throws {
        let published = try TDFVectors.published(at: Self.url, generated: try Self.generate())
        #expect(published.count == 2)
        for object in published {
            let file = try ArkavoDialectTests.hex(object, "nanotdf_hex")
            #expect(Array(file.prefix(4)) == [0x4C, 0x31, 0x4D, 0x01])
            let nano = try NanoTDF(parsing: file)
            #expect(nano.header.recipientPublicKey?.key == (try ArkavoDialectTests.hex(object, "recipient_public_key_compressed_hex")))
            let result = try nano.decrypt(usingAnyOf: [try ArkavoDialectTests.key(object)], dialect: .arkavo)
            let expected = try #require(object["plaintext_utf8"]?.stringValue)
            #expect(result.plaintext == Array(expected.utf8))
            #expect(result.binding == .verified && result.saltVersion == .v12)
            // The nonce is IV ‖ 00×9: AES-GCM with the published DEK and nonce opens the payload.
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: try ArkavoDialectTests.hex(object, "gcm_nonce12_hex")),
                ciphertext: nano.payload.ciphertext, tag: nano.payload.tag)
            #expect(Array(try AES.GCM.open(box, using: SymmetricKey(data: try ArkavoDialectTests.hex(object, "dek_hex")))) == result.plaintext)
        }
    }

    @Test func randomFilesRoundTripAndTheSDKDialectIsUnchanged() throws {
        let recipient = try NanoTDF.PrivateKey(generatingOn: .secp256r1)
        let kas = try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example.com")
        let arkavo = try NanoTDF.encrypt(Array("one".utf8), to: recipient.publicKey, configuration: .arkavoApp(kas: kas, policy: Self.policy))
        #expect(try arkavo.decrypt(usingAnyOf: [recipient], dialect: .arkavo).plaintext == Array("one".utf8))
        #expect(throws: NanoTDFError.policyBindingMismatch) { try arkavo.decrypt(using: recipient) }
        let sdk = try NanoTDF.encrypt(Array("two".utf8), to: recipient.publicKey, configuration: .init(kas: kas, policy: .plaintext(Self.policy)))
        let opened = try sdk.decrypt(usingAnyOf: [recipient], dialect: .sdk)
        #expect(opened.plaintext == Array("two".utf8) && opened.binding == .verified && opened.saltVersion == .v12)
        #expect(try sdk.decrypt(using: recipient) == Array("two".utf8))
    }

    @Test func theWriterRefusesWhatTheAppsReaderWouldNot() throws {
        let recipient = try NanoTDF.PrivateKey(generatingOn: .secp256r1).publicKey
        let https = try NanoTDF.ResourceLocator(scheme: .https, body: "kas.example.com")
        let refusals: [(NanoTDF.EncryptionConfiguration, [UInt8])] = [
            (.init(kas: https, policy: .plaintext(Self.policy), version: .v12, dialect: .arkavo), [1]),
            (.init(kas: try .init(scheme: .sharedResourceDirectory, body: "profile"), policy: .plaintext(Self.policy), version: .v13, dialect: .arkavo), [1]),
            (.init(kas: try .init(scheme: .https, body: [0xFF, 0xFE]), policy: .plaintext(Self.policy), version: .v13, dialect: .arkavo), [1]),
            (.init(kas: https, policy: .encrypted(Self.policy), version: .v13, dialect: .arkavo), [1]),
            (.init(kas: https, policy: .plaintext(Self.policy), binding: .ecdsa, version: .v13, dialect: .arkavo), [1]),
            (.init(kas: https, policy: .plaintext(Self.policy), cipher: .aes256gcm96, version: .v13, dialect: .arkavo), [1]),
            (.arkavoApp(kas: https, policy: Self.policy), []),
        ]
        for (configuration, plaintext) in refusals {
            do {
                _ = try NanoTDF.encrypt(plaintext, to: recipient, configuration: configuration)
                Issue.record("wrote what the app's reader refuses: \(configuration)")
            } catch {
                guard case .unsupportedInDialect(let dialect, _) = error, dialect == "arkavo" else {
                    Issue.record("unexpected \(error)")
                    continue
                }
            }
        }
    }

    @Test func hostileArkavoHeadersGiveTypedErrors() throws {
        let app = try #require(try ArkavoDialectTests.appVectors().first)
        let bytes = try ArkavoDialectTests.hex(app, "nanotdf_hex")
        let key = try ArkavoDialectTests.key(app)
        // Every truncation is a typed error, never a crash and never plaintext.
        for length in 0..<bytes.count {
            do {
                _ = try NanoTDF(parsing: bytes.prefix(length), options: NanoTDFDialect.arkavo.readOptions)
                Issue.record("prefix of \(length) bytes parsed")
            } catch {
                switch error {
                case .truncated, .payloadLengthTooSmall, .invalidPublicKey, .emptyPolicy, .emptyResourceLocator: break
                default: Issue.record("prefix \(length): unexpected \(error)")
                }
            }
        }
        // A 0x0F locator claiming 255 bytes runs out of input.
        let huge: [UInt8] = [0x4C, 0x31, 0x4D, 0x0F, 0xFF] + Array(bytes[5..<60])
        #expect(throws: NanoTDFError.truncated(field: "KAS locator body", needed: 255, available: 55, offset: 5)) {
            try NanoTDF(parsing: huge)
        }
        // A locator length one short or one long shifts every later field: a typed refusal, not plaintext.
        for delta in [-1, 1] {
            var shifted = bytes
            shifted[4] = UInt8(Int(shifted[4]) + delta)
            do {
                _ = try NanoTDF(parsing: shifted).decrypt(usingAnyOf: [key], dialect: .arkavo)
                Issue.record("a locator length off by \(delta) decrypted")
            } catch {}
        }
        // An identifier-size nibble the format lacks.
        var nibble = bytes
        nibble[3] = 0x4F
        #expect(throws: NanoTDFError.unknownIdentifierSize(4, field: "KAS locator")) { try NanoTDF(parsing: nibble) }
    }
}
