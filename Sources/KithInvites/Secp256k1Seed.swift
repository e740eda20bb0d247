/// Fresh randomness for libsecp256k1's context blinding (side-channel protection, not part of any signature).
enum Secp256k1Seed {
    /// 32 bytes from the system's cryptographically secure generator.
    static func fresh() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).flatMap { _ -> [UInt8] in
            let word = generator.next()
            return (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) }
        }
    }
}
