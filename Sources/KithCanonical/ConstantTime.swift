/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// True when both byte strings are equal; takes the same time for every pair of equal-length inputs.
    public static func equals<A: Collection, B: Collection>(_ lhs: A, _ rhs: B) -> Bool
    where A.Element == UInt8, B.Element == UInt8 {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
