import Testing

@testable import KithContinuity

/// The field and the byte-wise sharing under `RecoveryShareSet`.
@Suite struct ShamirSharingTests {
    @Test func multiplicationMatchesTheAESField() {
        // FIPS 197, section 4.2: {57} • {83} = {c1}; {57} • {13} = {fe}.
        #expect(GF256.multiply(0x57, 0x83) == 0xC1)
        #expect(GF256.multiply(0x57, 0x13) == 0xFE)
        #expect(GF256.multiply(0x00, 0xFF) == 0x00)
        #expect(GF256.multiply(0x01, 0xAB) == 0xAB)
    }

    @Test func everyNonZeroElementHasItsInverse() {
        for value in 1...255 {
            #expect(GF256.multiply(UInt8(value), GF256.inverse(UInt8(value))) == 1)
        }
        #expect(GF256.inverse(0) == 0)
    }

    @Test func multiplicationIsCommutativeAndDistributive() {
        for a in stride(from: 0, through: 255, by: 7) {
            for b in stride(from: 0, through: 255, by: 11) {
                let (x, y) = (UInt8(a), UInt8(b))
                #expect(GF256.multiply(x, y) == GF256.multiply(y, x))
                #expect(GF256.multiply(x, y ^ 0x5A) == GF256.multiply(x, y) ^ GF256.multiply(x, 0x5A))
            }
        }
    }

    @Test func anyThresholdSubsetRebuildsTheValue() {
        let value: [UInt8] = Array("threshold secret".utf8)
        let coefficients: [UInt8] = (0..<(value.count * 2)).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let shares = ShamirSharing.split(value, threshold: 3, shareCount: 5, coefficients: coefficients)
        for a in 0..<5 {
            for b in (a + 1)..<5 {
                for c in (b + 1)..<5 {
                    let points = [a, b, c].map { (x: UInt8($0 + 1), value: shares[$0]) }
                    #expect(ShamirSharing.combine(points) == value)
                }
            }
        }
        // All five points lie on the same polynomials, so they rebuild it too.
        #expect(ShamirSharing.combine(shares.enumerated().map { (x: UInt8($0.offset + 1), value: $0.element) }) == value)
    }

    @Test func belowTheThresholdEverySecretIsEquallyConsistent() {
        // Threshold 2: one share y = s + a1·x fits every secret s with a1 = (y - s) / x, so one share says nothing.
        let share = ShamirSharing.split([0x42], threshold: 2, shareCount: 2, coefficients: [0x99])[0]
        for candidate in 0...255 {
            let slope = GF256.multiply(share[0] ^ UInt8(candidate), GF256.inverse(1))
            #expect(GF256.evaluate([UInt8(candidate), slope], at: 1) == share[0])
        }
    }
}
