import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing

@testable import KithContinuity

/// Kith's published recovery-share vectors (`TestVectors/continuity/recovery-shares-v1.json`): share sets split with
/// fixed randomness (set id, then coefficients), combinations a combiner must refuse, and a request with its safety
/// code.
///
/// Generator: `KITH_WRITE_VECTORS=1 swift test --filter RecoveryVectorTests` rewrites the file from the fixed inputs
/// below; without the variable the test checks the committed file against this code.
/// `Interop/continuity/check_recovery_shares.py` re-splits, combines and checks every case in plain Python.
@Suite struct RecoveryVectorTests {
    static let url = TestPaths.kithVectors.appendingPathComponent("continuity/recovery-shares-v1.json")

    struct Case {
        let name: String
        let threshold: Int
        let shareCount: Int
        let generation: UInt32
        let owner: [UInt8]
        let secret: [UInt8]
        let randomness: [UInt8]
    }

    static func pattern(_ count: Int, _ multiplier: UInt8, _ offset: UInt8) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0) &* multiplier &+ offset }
    }

    static let ownerA = Array(SHA256.hash(data: Array("vector owner A".utf8)))
    static let ownerB = Array(SHA256.hash(data: Array("vector owner B".utf8)))

    static let cases: [Case] = [
        Case(name: "2-of-3, version byte and device seed", threshold: 2, shareCount: 3, generation: 1, owner: ownerA,
             secret: [0x01] + pattern(32, 3, 0x21), randomness: pattern(16 + 65 * 1, 29, 7)),
        Case(name: "3-of-5, device seed and one rotated key seed", threshold: 3, shareCount: 5, generation: 2,
             owner: ownerA, secret: [0x01] + pattern(64, 5, 0x90), randomness: pattern(16 + 97 * 2, 101, 3)),
        Case(name: "16-of-16, one byte", threshold: 16, shareCount: 16, generation: 7, owner: ownerB,
             secret: [0xA5], randomness: pattern(16 + 33 * 15, 13, 200)),
    ]

    static func hex(_ bytes: [UInt8]) -> JSONValue { .string(TestPaths.hexString(bytes)) }
    static func hexList(_ shares: [RecoveryShare]) -> JSONValue { .array(shares.map { hex($0.encoded) }) }

    static func split(_ vector: Case) throws -> RecoveryShareSet {
        var randomness = FixedRecoveryRandomness(vector.randomness)
        return try RecoveryShareSet.split(secret: vector.secret, ownerFeedID: vector.owner, threshold: vector.threshold,
                                          shareCount: vector.shareCount, generation: vector.generation,
                                          randomness: &randomness)
    }

    static func hostile(_ name: String, _ shares: [RecoveryShare], _ error: String) -> JSONValue {
        var object = JSONObject()
        object["name"] = .string(name)
        object["shares_hex"] = hexList(shares)
        object["error"] = .string(error)
        return .object(object)
    }

    static func generate() throws -> JSONObject {
        var caseValues: [JSONValue] = []
        var sets: [RecoveryShareSet] = []
        for vector in cases {
            let set = try split(vector)
            sets.append(set)
            var object = JSONObject()
            object["name"] = .string(vector.name)
            object["threshold"] = .integer(Int64(vector.threshold))
            object["share_count"] = .integer(Int64(vector.shareCount))
            object["generation"] = .integer(Int64(vector.generation))
            object["owner_feed_id_hex"] = hex(vector.owner)
            object["secret_hex"] = hex(vector.secret)
            object["randomness_hex"] = hex(vector.randomness)
            object["set_id_hex"] = hex(set.setID)
            object["digest_hex"] = hex(RecoveryDigest.compute(secret: vector.secret, setID: set.setID,
                                                              generation: vector.generation, threshold: vector.threshold,
                                                              shareCount: vector.shareCount, ownerFeedID: vector.owner))
            object["shares_hex"] = hexList(set.shares)
            object["share_text_first"] = .string(set.shares[0].text)
            caseValues.append(.object(object))
        }
        let first = sets[0].shares
        let second = sets[1].shares
        var forgedValue = second[2].value
        forgedValue[0] ^= 0x01
        let forged = RecoveryShare(setID: second[2].setID, generation: second[2].generation, threshold: 3, shareCount: 5,
                                   index: 3, ownerFeedID: second[2].ownerFeedID, value: forgedValue)
        let relabelled = RecoveryShare(setID: second[0].setID, generation: second[0].generation, threshold: 3,
                                       shareCount: 5, index: 3, ownerFeedID: ownerA,
                                       value: try split(Case(name: "", threshold: 3, shareCount: 5, generation: 2,
                                                             owner: ownerA, secret: cases[1].secret,
                                                             randomness: pattern(16 + 97 * 2, 61, 5))).shares[2].value)
        let hostile: [JSONValue] = [
            Self.hostile("one share short of the threshold", Array(second.prefix(2)), "not_enough_shares"),
            Self.hostile("one altered byte in one share", [second[0], second[1], forged], "integrity_check_failed"),
            Self.hostile("a share of another split of the same secret under this set id", [second[0], second[1], relabelled],
                         "integrity_check_failed"),
            Self.hostile("shares of two sets", [first[0], second[1], second[2]], "different_sets"),
            Self.hostile("the same share twice", [second[0], second[1], second[0]], "duplicate_share"),
        ]

        let requestKey = RecoveryRequestKey(privateKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: pattern(32, 7, 1)),
                                            ownerFeedID: ownerA, nonce: pattern(16, 17, 9))
        var request = JSONObject()
        request["private_key_hex"] = hex(pattern(32, 7, 1))
        request["owner_feed_id_hex"] = hex(ownerA)
        request["nonce_hex"] = hex(requestKey.request.nonce)
        request["public_key_hex"] = hex(requestKey.request.publicKey)
        request["encoded_hex"] = hex(requestKey.request.encoded)
        request["text"] = .string(requestKey.request.text)
        request["safety_code"] = .string(requestKey.request.safetyCode)

        var root = JSONObject()
        root["description"] = .string("Kith recovery shares v1 (docs/CONTINUITY.md, Recovery through contacts): "
            + "byte-wise Shamir over GF(2^8) mod 0x11B of secret | digest; randomness = set id 16 | for each byte of "
            + "secret | digest, coefficients a1..a(k-1); share x = index")
        root["digest_label"] = .string(String(decoding: RecoveryDigest.label, as: UTF8.self))
        root["cases"] = .array(caseValues)
        root["hostile"] = .array(hostile)
        root["request"] = .object(request)
        return root
    }

    @Test func publishedVectorsMatchThisImplementation() throws {
        let generated = CanonicalJSON.serialize(.object(try Self.generate()))
        let bytes = try TestPaths.publishedVector(at: Self.url, generated: generated)
        #expect(bytes == generated)
    }

    @Test func everyCaseRebuildsItsSecretAndEveryHostileCaseIsRefused() throws {
        for vector in Self.cases {
            let set = try Self.split(vector)
            #expect(try RecoveryShareSet.combine(Array(set.shares.suffix(vector.threshold))) == vector.secret)
        }
        let root = try Self.generate()
        for entry in root["hostile"]?.arrayValue ?? [] {
            let shares = try (entry.objectValue?["shares_hex"]?.arrayValue ?? []).map { value in
                try RecoveryShare(encoded: TestPaths.hex(value.stringValue ?? "") ?? [])
            }
            #expect(throws: RecoveryError.self) { try RecoveryShareSet.combine(shares) }
        }
    }
}
