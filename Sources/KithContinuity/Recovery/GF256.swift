/// Arithmetic in GF(2^8) with the AES reduction polynomial x^8 + x^4 + x^3 + x + 1 (0x11B), the field of the
/// byte-wise Shamir sharing of `ShamirSharing`.
///
/// Multiplication is constant time: eight shift-and-add rounds whose additions and reductions are selected by
/// masks, never by branches or by table lookups indexed with (possibly secret) bytes. Addition and subtraction are
/// both XOR.
enum GF256 {
    /// The product of `left` and `right`.
    static func multiply(_ left: UInt8, _ right: UInt8) -> UInt8 {
        var a = left
        var b = right
        var product: UInt8 = 0
        for _ in 0..<8 {
            // Add a when the low bit of b is set (mask is 0xFF or 0x00).
            product ^= a & (0 &- (b & 1))
            // a *= x, reducing by 0x1B when the bit shifted out was set.
            let carry = 0 &- (a >> 7)
            a = (a << 1) ^ (0x1B & carry)
            b >>= 1
        }
        return product
    }

    /// The multiplicative inverse of `value` (a^254); 0 maps to 0. A fixed chain of squarings and multiplications.
    static func inverse(_ value: UInt8) -> UInt8 {
        // 254 = 0b11111110: result = value^2 * value^4 * ... * value^128.
        var square = multiply(value, value)
        var result = square
        for _ in 0..<6 {
            square = multiply(square, square)
            result = multiply(result, square)
        }
        return result
    }

    /// The value at `x` of the polynomial whose coefficients are `coefficients` (constant term first), by Horner's
    /// rule.
    static func evaluate(_ coefficients: [UInt8], at x: UInt8) -> UInt8 {
        var result: UInt8 = 0
        for coefficient in coefficients.reversed() {
            result = multiply(result, x) ^ coefficient
        }
        return result
    }
}
