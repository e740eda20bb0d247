/// Where a share set's random bytes come from: the set id first, then the polynomial coefficients. Production
/// uses `SystemRecoveryRandomness`; the published vectors use fixed bytes through this seam.
protocol RecoveryRandomness {
    /// The next `count` random bytes.
    mutating func bytes(_ count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator.
struct SystemRecoveryRandomness: RecoveryRandomness {
    mutating func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// Fixed bytes, in order (vectors and tests); past the end it yields zeros.
struct FixedRecoveryRandomness: RecoveryRandomness {
    private var remaining: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { remaining = bytes[...] }

    mutating func bytes(_ count: Int) -> [UInt8] {
        let taken = Array(remaining.prefix(count))
        remaining = remaining.dropFirst(count)
        return taken + [UInt8](repeating: 0, count: count - taken.count)
    }
}
