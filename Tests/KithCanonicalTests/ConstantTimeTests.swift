import Testing

@testable import KithCanonical

/// The one constant-time comparison: its array form and its generic form agree with `==` on every case.
@Suite struct ConstantTimeTests {
    /// Pairs that differ in the first byte, the last byte, only in length, or not at all.
    static let pairs: [([UInt8], [UInt8])] = [
        ([], []), ([0], [0]), ([0], [1]), ([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [9, 2, 3]), ([1, 2, 3], [1, 2, 9]),
        ([1, 2, 3], [1, 2]), ([1, 2], [1, 2, 3]), ([], [0]), (Array(repeating: 0xFF, count: 64), Array(repeating: 0xFF, count: 64)),
        (Array(repeating: 0xFF, count: 64), Array(repeating: 0xFF, count: 63) + [0xFE]),
    ]

    @Test func arrayFormMatchesEquality() {
        for (lhs, rhs) in Self.pairs {
            #expect(ConstantTime.equals(lhs, rhs) == (lhs == rhs), "\(lhs) vs \(rhs)")
        }
    }

    @Test func genericFormMatchesEquality() {
        for (lhs, rhs) in Self.pairs {
            #expect(ConstantTime.equals(lhs[...], AnyCollection(rhs)) == (lhs == rhs), "\(lhs) vs \(rhs)")
            #expect(ConstantTime.equals(ArraySlice(lhs), ArraySlice(rhs)) == (lhs == rhs), "\(lhs) vs \(rhs)")
        }
    }

    @Test func sliceOfALongerArrayComparesOnlyItsBytes() {
        let tag: [UInt8] = [7, 8, 9, 10, 11, 12]
        #expect(ConstantTime.equals(tag.prefix(4), [7, 8, 9, 10]))
        #expect(!ConstantTime.equals(tag.prefix(4), [7, 8, 9, 11]))
        #expect(!ConstantTime.equals(tag.prefix(4), tag))
    }
}
