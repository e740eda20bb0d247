/// Constant-time comparison specialised for byte arrays (the generic `ConstantTime.equals` of
/// KithCanonical is not specialised across modules and dominated the per-message profile).
enum ByteComparison {
    /// True when both arrays hold the same bytes; time depends only on the length.
    @inline(__always)
    static func equal(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
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
