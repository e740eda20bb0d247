/// Comparisons whose running time does not depend on where the inputs differ: the one constant-time comparison of
/// Kith, used by every module that checks a secret, tag, digest or key.
public enum ConstantTime {
    /// True when both byte strings are equal; takes the same time for every pair of equal-length inputs.
    @inlinable
    public static func equals<A: Collection, B: Collection>(_ lhs: A, _ rhs: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }

    /// True when both arrays hold the same bytes; takes the same time for every pair of equal-length arrays.
    ///
    /// The array form of the generic comparison, inlined into its callers and reading both arrays through buffer
    /// pointers, for hot paths such as the ratchet's per-message key checks.
    @inlinable @inline(__always)
    public static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                var difference: UInt8 = 0
                for index in 0..<left.count { difference |= left[index] ^ right[index] }
                return difference == 0
            }
        }
    }
}
