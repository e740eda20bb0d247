import Crypto
import Foundation
import KithCanonical
import KithTestSupport
import Testing
@testable import KithIdentity

/// Keys enter Kith only under the strict rule (docs/FEED-FORMAT.md section 2, "Ed25519
/// verification rule"): a small-order or mixed-order key, which would verify forged entries,
/// is refused where it is parsed.
@Suite struct StrictKeyEntryTests {
    /// The identity point: [S]B = R holds for every message under it.
    static let identityPoint = Base64URL.encode([UInt8(1)] + [UInt8](repeating: 0, count: 31))
    @Test func smallOrderKeysAreRefused() {
        #expect(throws: IdentityError.self) { try PublicKeys.identityKey(fromBase64URL: Self.identityPoint) }
    }

    @Test func everyRejectedKeyOfThePublishedVectorsIsRefused() throws {
        struct Case: Decodable { let public_key_hex: String; let key_error: String? }
        struct File: Decodable { let cases: [Case] }
        let file = try JSONDecoder().decode(File.self, from: Data(try Data(contentsOf: TestPaths.kithVectors.appendingPathComponent("ed25519/strict-v1.json"))))
        for vector in file.cases {
            let text = Base64URL.encode(try #require(TestPaths.hex(vector.public_key_hex)))
            let parsed = try? PublicKeys.identityKey(fromBase64URL: text)
            #expect((parsed == nil) == (vector.key_error != nil), "\(vector.public_key_hex)")
        }
    }

    @Test func honestKeysParse() throws {
        let key = Curve25519.Signing.PrivateKey().publicKey
        #expect(try PublicKeys.identityKey(fromBase64URL: Base64URL.encode(key.rawRepresentation)).rawRepresentation == key.rawRepresentation)
    }
}
