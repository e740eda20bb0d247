import Crypto
import Foundation
import KithEd25519
import KithTestSupport
import Testing

/// Kith's published strict-Ed25519 vectors (`TestVectors/ed25519/strict-v1.json`, generated and
/// independently re-checked by `Interop/ed25519/strict_vectors.py`): every edge case gets the
/// verdict docs/FEED-FORMAT.md section 2.3 states.
@Suite struct StrictEd25519VectorTests {
    struct Case: Decodable, CustomTestStringConvertible {
        let name: String
        let public_key_hex: String
        let message_hex: String
        let signature_hex: String
        let key_error: String?
        let signature_error: String?
        let strict_valid: Bool
        var testDescription: String { name }
    }

    struct File: Decodable { let cases: [Case] }

    static let cases: [Case] = {
        let url = TestPaths.kithVectors.appendingPathComponent("ed25519/strict-v1.json")
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.cases
    }()

    static func code(_ error: Ed25519Error) -> String {
        switch error {
        case .invalidLength: "invalid_length"
        case .nonCanonicalEncoding: "non_canonical_encoding"
        case .notOnCurve: "not_on_curve"
        case .smallOrder: "small_order"
        case .notInPrimeOrderSubgroup: "not_in_prime_order_subgroup"
        case .nonCanonicalScalar: "non_canonical_scalar"
        }
    }

    @Test func theVectorFileCoversEveryRule() {
        #expect(Self.cases.count >= 10)
        let codes = Set(Self.cases.compactMap(\.key_error) + Self.cases.compactMap(\.signature_error))
        #expect(codes == ["non_canonical_encoding", "not_on_curve", "small_order", "not_in_prime_order_subgroup", "non_canonical_scalar"])
    }

    @Test(arguments: cases) func verdict(_ vector: Case) throws {
        let key = try #require(TestPaths.hex(vector.public_key_hex))
        let message = try #require(TestPaths.hex(vector.message_hex))
        let signature = try #require(TestPaths.hex(vector.signature_hex))
        var keyError: String?
        do { try StrictEd25519.validatePublicKey(key) } catch { keyError = Self.code(error) }
        #expect(keyError == vector.key_error)
        var signatureError: String?
        do { try StrictEd25519.validateSignatureEncoding(signature) } catch { signatureError = Self.code(error) }
        #expect(signatureError == vector.signature_error)
        if keyError == nil {
            let publicKey = try Curve25519.Signing.PublicKey(rawRepresentation: key)
            #expect(publicKey.isValidStrictSignature(signature, for: message) == vector.strict_valid)
        } else {
            #expect(!vector.strict_valid)
        }
    }

    @Test func generatedKeysPassAndTheirSignaturesVerify() throws {
        for _ in 0..<8 {
            let key = Curve25519.Signing.PrivateKey()
            try StrictEd25519.validatePublicKey(key.publicKey.rawRepresentation)
            let signature = try key.signature(for: Array("hello".utf8))
            #expect(key.publicKey.isValidStrictSignature(Array(signature), for: Array("hello".utf8)))
        }
    }

    @Test func lengthsAreChecked() {
        #expect(throws: Ed25519Error.invalidLength(expected: 32, actual: 31)) { try StrictEd25519.validatePublicKey([UInt8](repeating: 1, count: 31)) }
        #expect(throws: Ed25519Error.invalidLength(expected: 64, actual: 63)) { try StrictEd25519.validateSignatureEncoding([UInt8](repeating: 0, count: 63)) }
    }
}
