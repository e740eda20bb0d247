/// Why an Ed25519 public key or signature is outside Kith's strict rule.
public enum Ed25519Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not 32 bytes (a key) or 64 bytes (a signature).
    case invalidLength(expected: Int, actual: Int)
    /// The y-coordinate is not below p = 2^255 - 19, or x = 0 is encoded with its sign bit set.
    case nonCanonicalEncoding
    /// The encoding decodes to no point of the curve.
    case notOnCurve
    /// One of the eight points of small order (they verify signatures on any message).
    case smallOrder
    /// A point with a small-order component (mixed order): verifiers that multiply by the
    /// cofactor and those that do not would disagree about its signatures.
    case notInPrimeOrderSubgroup
    /// The signature's scalar S is not below the group order L (a malleated signature).
    case nonCanonicalScalar

    public var description: String {
        switch self {
        case .invalidLength(let expected, let actual): "expected \(expected) bytes, found \(actual)"
        case .nonCanonicalEncoding: "the point is not canonically encoded"
        case .notOnCurve: "the point is not on the Ed25519 curve"
        case .smallOrder: "the key is a point of small order"
        case .notInPrimeOrderSubgroup: "the key is not in the prime-order subgroup"
        case .nonCanonicalScalar: "the signature's S is not below the group order"
        }
    }
}
