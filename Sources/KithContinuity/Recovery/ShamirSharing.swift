/// Byte-wise Shamir secret sharing over `GF256`: each byte of the value is the constant term of its own random
/// polynomial of degree `threshold - 1`; share `x` (1…n) holds every polynomial's value at `x`.
///
/// Pure and deterministic given its coefficients; `RecoveryShareSet` draws them from the system generator (or a
/// fixed source for the published vectors).
enum ShamirSharing {
    /// The n share values of `value`: `coefficients` holds, for each byte of `value` in order, the `threshold - 1`
    /// coefficients a1…a(k-1) of its polynomial. The caller checks the sizes.
    static func split(_ value: [UInt8], threshold: Int, shareCount: Int, coefficients: [UInt8]) -> [[UInt8]] {
        let degree = threshold - 1
        var shares = Array(repeating: [UInt8](repeating: 0, count: value.count), count: shareCount)
        var polynomial = [UInt8](repeating: 0, count: threshold)
        for position in value.indices {
            polynomial[0] = value[position]
            for term in 0..<degree { polynomial[term + 1] = coefficients[position * degree + term] }
            for share in 0..<shareCount {
                shares[share][position] = GF256.evaluate(polynomial, at: UInt8(share + 1))
            }
        }
        for term in polynomial.indices { polynomial[term] = 0 }
        return shares
    }

    /// The value rebuilt from points (x, value) with distinct non-zero x and equal-length values: Lagrange
    /// interpolation at 0 over all the points given.
    static func combine(_ points: [(x: UInt8, value: [UInt8])]) -> [UInt8] {
        guard let length = points.first?.value.count else { return [] }
        // The Lagrange basis at 0 depends only on the (public) x-coordinates: l_i = prod_{j != i} x_j / (x_j - x_i).
        let basis = points.indices.map { i in
            var numerator: UInt8 = 1
            var denominator: UInt8 = 1
            for j in points.indices where j != i {
                numerator = GF256.multiply(numerator, points[j].x)
                denominator = GF256.multiply(denominator, points[j].x ^ points[i].x)
            }
            return GF256.multiply(numerator, GF256.inverse(denominator))
        }
        var result = [UInt8](repeating: 0, count: length)
        for (point, weight) in zip(points, basis) {
            for position in 0..<length {
                result[position] ^= GF256.multiply(point.value[position], weight)
            }
        }
        return result
    }
}
