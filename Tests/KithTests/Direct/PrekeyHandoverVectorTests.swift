import Crypto
import Foundation
import KithCanonical
import KithIdentity
import KithRatchet
import KithTestSupport
import Testing
@testable import Kith

/// Kith's published prekey-handover vectors (`TestVectors/direct/prekey-handover-v1.json`,
/// docs/FEED-FORMAT.md section 12.12): a signed handover of three one-time prekeys, and invalid
/// variants with the rule each breaks.
///
/// Generator: `KITH_WRITE_VECTORS=1 swift test --filter PrekeyHandoverVectorTests`; without the
/// variable the test checks the committed file. `Interop/direct/check_handover.py` verifies it
/// with Python `cryptography` alone.
@Suite struct PrekeyHandoverVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("direct/prekey-handover-v1.json")
    static let issuerSeed: [UInt8] = (0..<32).map { UInt8(0x11 + $0) }
    static let recipientSeed: [UInt8] = (0..<32).map { UInt8(0x51 + $0) }
    static let prekeyScalars: [[UInt8]] = (0..<3).map { index in (0..<32).map { UInt8(0x90 + index * 0x10 + $0) } }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> JSONValue where Bytes.Element == UInt8 { .string(TestPaths.hexString(Array(bytes))) }

    static func handover() throws -> (PrekeyHandover, Identity, Identity) {
        let issuer = try Identity(seed: try Seed(bytes: issuerSeed))
        let recipient = try Identity(seed: try Seed(bytes: recipientSeed))
        let entries = try prekeyScalars.enumerated().map { index, scalar in
            OneTimePrekeyPublic(id: UInt32(index + 1), publicKey: Array(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar).publicKey.rawRepresentation))
        }
        let batch = try OneTimePrekeyBatch(entries: entries)
        return (try PrekeyHandover.sign(batch: batch, issuer: issuer.feedID, recipient: recipient.feedID, identity: issuer), issuer, recipient)
    }

    static func generate() throws -> JSONObject {
        let (handover, issuer, recipient) = try handover()
        var root = JSONObject()
        root["description"] = .string("Kith one-time prekey handover v1 (docs/FEED-FORMAT.md 12.12 and 12.2.2)")
        root["generator"] = .string("KITH_WRITE_VECTORS=1 swift test --filter PrekeyHandoverVectorTests")
        root["issuer_seed_hex"] = hex(issuerSeed)
        root["issuer_identity_key"] = .string(issuer.publicKeys.identityKeyString)
        root["issuer_feed_id"] = .string(issuer.feedID.string)
        root["recipient_feed_id"] = .string(recipient.feedID.string)
        root["prekeys"] = .array(try prekeyScalars.enumerated().map { index, scalar in
            var object = JSONObject()
            object["id"] = .integer(Int64(index + 1))
            object["private_hex"] = hex(scalar)
            object["public_hex"] = hex(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar).publicKey.rawRepresentation)
            return .object(object)
        })
        root["signed_bytes_hex"] = hex(Array("Kith_PrekeyHandover_v1".utf8) + handover.encoded.dropLast(64))
        root["handover_hex"] = hex(handover.encoded)
        root["handover_text"] = .string(handover.text)
        var invalid: [JSONValue] = []
        func add(_ name: String, _ bytes: [UInt8]) {
            var object = JSONObject()
            object["name"] = .string(name)
            object["handover_hex"] = hex(bytes)
            invalid.append(.object(object))
        }
        var flipped = handover.encoded
        flipped[flipped.count - 70] ^= 0x01
        add("tampered_key_byte", flipped)
        add("unknown_version", [0x02] + handover.encoded.dropFirst())
        add("truncated", Array(handover.encoded.dropLast(65)))
        var count = handover.encoded
        count[1 + 64 + 2] = 0x04
        add("count_exceeds_bytes", count)
        root["invalid"] = .array(invalid)
        return root
    }

    @Test func publishedVectorsMatchThisImplementation() async throws {
        let generated = try Self.generate()
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: CanonicalJSON.serialize(.object(generated)))
        let published = try #require(try CanonicalJSON.parse(bytes).objectValue)
        for name in ["issuer_identity_key", "issuer_feed_id", "recipient_feed_id", "prekeys", "signed_bytes_hex"] {
            #expect(published[name] == generated[name], "\(name) differs")
        }
        // Ed25519 signatures may be randomized by the crypto backend: verify the published one.
        let issuer = try Identity(seed: try Seed(bytes: Self.issuerSeed))
        let parsed = try PrekeyHandover(text: try #require(published["handover_text"]?.stringValue), issuerKey: issuer.publicKeys.identityKey)
        #expect(parsed.issuer == issuer.feedID)
        #expect(parsed.batch.entries.map(\.id) == [1, 2, 3])
        for case .object(let object) in try #require(published["invalid"]?.arrayValue) {
            let hexText = try #require(object["handover_hex"]?.stringValue)
            let text = Base64URL.encode(try #require(TestPaths.hex(hexText)))
            #expect(throws: KithError.self, "\(object["name"]?.stringValue ?? "")") {
                try PrekeyHandover(text: text, issuerKey: issuer.publicKeys.identityKey)
            }
        }
    }
}
