import Crypto
import Foundation
import KithRatchet
import KithTestSupport
import PropertyBased
import Testing

@Suite struct EdwardsToMontgomeryTests {
    @Test func convertedKeysAgreeBothWays() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int.max)) { seed in
            var rng = SplitMix64(state: UInt64(seed))
            let seedA = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let seedB = (0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) }
            do {
                let a = try Curve25519.Signing.PrivateKey(rawRepresentation: seedA)
                let b = try Curve25519.Signing.PrivateKey(rawRepresentation: seedB)
                let privA = try EdwardsToMontgomery.keyAgreementKey(from: a)
                let privB = try EdwardsToMontgomery.keyAgreementKey(from: b)
                let pubA = try EdwardsToMontgomery.keyAgreementKey(from: a.publicKey)
                let pubB = try EdwardsToMontgomery.keyAgreementKey(from: b.publicKey)
                #expect(pubA.rawRepresentation == privA.publicKey.rawRepresentation)
                let ab = try X25519Agreement.sharedSecret(privA, pubB)
                let ba = try X25519Agreement.sharedSecret(privB, pubA)
                #expect(ab == ba)
            } catch {
                Issue.record("conversion failed: \(error)")
            }
        }
    }

    @Test func privateKeyIsClampedSHA512Prefix() throws {
        let seed = [UInt8](repeating: 7, count: 32)
        let scalar = try EdwardsToMontgomery.privateKey(fromEd25519Seed: seed)
        var expected = Array(SHA512.hash(data: seed).prefix(32))
        expected[0] &= 248; expected[31] &= 127; expected[31] |= 64
        #expect(scalar == expected)
    }

    @Test func rejectsWrongLengths() {
        #expect(throws: RatchetError.invalidKeyLength(expected: 32, actual: 31)) {
            try EdwardsToMontgomery.publicKey(fromEd25519: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: RatchetError.invalidKeyLength(expected: 32, actual: 33)) {
            try EdwardsToMontgomery.privateKey(fromEd25519Seed: [UInt8](repeating: 1, count: 33))
        }
    }

    @Test func rejectsNonCanonicalY() {
        // y = p (encodes 0 non-canonically).
        let yEqualsP: [UInt8] = [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
        #expect(throws: RatchetError.invalidEd25519PublicKey) { try EdwardsToMontgomery.publicKey(fromEd25519: yEqualsP) }
    }

    @Test func rejectsPointsOffTheCurve() {
        // y = 2: (y^2 - 1) / (d y^2 + 1) is not a square.
        let yTwo: [UInt8] = [0x02] + [UInt8](repeating: 0, count: 31)
        #expect(throws: RatchetError.invalidEd25519PublicKey) { try EdwardsToMontgomery.publicKey(fromEd25519: yTwo) }
    }

    @Test(arguments: EdwardsToMontgomeryVectors.smallOrderPoints)
    func rejectsSmallOrderPoints(hex: String) throws {
        let point = try #require(TestPaths.hex(hex))
        #expect(throws: RatchetError.lowOrderPoint) { try EdwardsToMontgomery.publicKey(fromEd25519: point) }
    }

    @Test func rejectsMixedOrderPoint() throws {
        let point = try #require(TestPaths.hex(EdwardsToMontgomeryVectors.mixedOrderPoint))
        #expect(throws: RatchetError.notInPrimeOrderSubgroup) { try EdwardsToMontgomery.publicKey(fromEd25519: point) }
    }

    @Test func publishedVectorsMatch() throws {
        let url = TestPaths.kithVectors.appendingPathComponent("ratchet/ed25519-to-x25519.json")
        let file = try JSONDecoder().decode(EdwardsToMontgomeryVectors.File.self, from: Data(contentsOf: url))
        #expect(file.valid.count >= 8)
        for vector in file.valid {
            let seed = try #require(TestPaths.hex(vector.ed25519_seed))
            let publicKey = try #require(TestPaths.hex(vector.ed25519_public))
            #expect(Array(try Curve25519.Signing.PrivateKey(rawRepresentation: seed).publicKey.rawRepresentation) == publicKey)
            #expect(TestPaths.hexString(try EdwardsToMontgomery.privateKey(fromEd25519Seed: seed)) == vector.x25519_private)
            #expect(TestPaths.hexString(try EdwardsToMontgomery.publicKey(fromEd25519: publicKey)) == vector.x25519_public)
        }
        for vector in file.invalid {
            let point = try #require(TestPaths.hex(vector.ed25519_public))
            #expect(throws: RatchetError.self) { try EdwardsToMontgomery.publicKey(fromEd25519: point) }
        }
    }

    /// Regenerates TestVectors/ratchet/ed25519-to-x25519.json when KITH_WRITE_VECTORS=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["KITH_WRITE_VECTORS"] == "1"))
    func writePublishedVectors() throws {
        var valid: [EdwardsToMontgomeryVectors.Valid] = []
        for index in 0..<16 {
            let seed = Array(SHA256.hash(data: Array("kith ed25519-to-x25519 vector \(index)".utf8)))
            let key = try Curve25519.Signing.PrivateKey(rawRepresentation: seed)
            let publicKey = Array(key.publicKey.rawRepresentation)
            valid.append(.init(
                ed25519_seed: TestPaths.hexString(seed), ed25519_public: TestPaths.hexString(publicKey),
                x25519_private: TestPaths.hexString(try EdwardsToMontgomery.privateKey(fromEd25519Seed: seed)),
                x25519_public: TestPaths.hexString(try EdwardsToMontgomery.publicKey(fromEd25519: publicKey))
            ))
        }
        var invalid = EdwardsToMontgomeryVectors.smallOrderPoints.map {
            EdwardsToMontgomeryVectors.Invalid(ed25519_public: $0, reason: "small order")
        }
        invalid.append(.init(ed25519_public: EdwardsToMontgomeryVectors.mixedOrderPoint, reason: "not in the prime-order subgroup"))
        invalid.append(.init(ed25519_public: "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", reason: "non-canonical y (y = p)"))
        invalid.append(.init(ed25519_public: "0200000000000000000000000000000000000000000000000000000000000000", reason: "not on the curve (y = 2)"))
        let file = EdwardsToMontgomeryVectors.File(
            description: "Ed25519 -> X25519 key conversion (Kith docs/ratchet.md section 1). x25519_private = clamp(SHA-512(seed)[0..<32]); x25519_public = (1 + y) / (1 - y) mod 2^255 - 19. Invalid keys must be rejected.",
            generator: "swift test --filter writePublishedVectors with KITH_WRITE_VECTORS=1 (Tests/KithRatchetTests/EdwardsToMontgomeryTests.swift)",
            valid: valid, invalid: invalid
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let url = TestPaths.kithVectors.appendingPathComponent("ratchet/ed25519-to-x25519.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (encoder.encode(file) + Data("\n".utf8)).write(to: url)
    }
}

enum EdwardsToMontgomeryVectors {
    struct Valid: Codable { var ed25519_seed, ed25519_public, x25519_private, x25519_public: String }
    struct Invalid: Codable { var ed25519_public, reason: String }
    struct File: Codable { var description, generator: String; var valid: [Valid]; var invalid: [Invalid] }

    /// Encodings of Ed25519 points of order 1, 2, 4 and 8.
    static let smallOrderPoints = [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0000000000000000000000000000000000000000000000000000000000000080",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
        "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
    ]

    /// The base point plus a point of order 8 (B + T8, computed with textbook Edwards addition).
    static let mixedOrderPoint = "da99e28ba529cdde35a25fba9059e78ecaee239f99755b9b1aa4f65df00803e2"
}
