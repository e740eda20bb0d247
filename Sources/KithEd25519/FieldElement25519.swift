/// An element of GF(2^255 - 19) in five 51-bit limbs (little-endian), for checking Ed25519 points
/// and mapping them to X25519.
///
/// Operations have no data-dependent branches or table lookups except ``power(_:)``, whose exponent
/// is always a public constant. Only public keys pass through this type.
package struct FieldElement25519: Sendable, Equatable {
    private static let mask51: UInt64 = (1 << 51) - 1
    package var limbs: (UInt64, UInt64, UInt64, UInt64, UInt64)

    package static let zero = FieldElement25519(limbs: (0, 0, 0, 0, 0))
    package static let one = FieldElement25519(limbs: (1, 0, 0, 0, 0))

    package init(limbs: (UInt64, UInt64, UInt64, UInt64, UInt64)) { self.limbs = limbs }

    /// A small integer.
    package init(_ small: UInt64) { limbs = (small & Self.mask51, small >> 51, 0, 0, 0) }

    /// Reads 32 little-endian bytes, ignoring bit 255.
    package init(littleEndian bytes: [UInt8]) {
        func word(_ index: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in 0..<8 { value |= UInt64(bytes[index * 8 + byte]) << UInt64(8 * byte) }
            return value
        }
        let w0 = word(0), w1 = word(1), w2 = word(2), w3 = word(3) & 0x7FFF_FFFF_FFFF_FFFF
        limbs = (
            w0 & Self.mask51,
            ((w0 >> 51) | (w1 << 13)) & Self.mask51,
            ((w1 >> 38) | (w2 << 26)) & Self.mask51,
            ((w2 >> 25) | (w3 << 39)) & Self.mask51,
            (w3 >> 12) & Self.mask51
        )
    }

    /// The canonical (fully reduced) 32-byte little-endian encoding.
    package var littleEndianBytes: [UInt8] {
        var (l0, l1, l2, l3, l4) = carried().limbs
        // Now each limb < 2^51 (+ tiny), value < 2p. Subtract p if value >= p, branch-free.
        var carry = (l0 + 19) >> 51
        carry = (l1 + carry) >> 51
        carry = (l2 + carry) >> 51
        carry = (l3 + carry) >> 51
        carry = (l4 + carry) >> 51
        l0 += 19 &* carry
        l1 += l0 >> 51; l0 &= Self.mask51
        l2 += l1 >> 51; l1 &= Self.mask51
        l3 += l2 >> 51; l2 &= Self.mask51
        l4 += l3 >> 51; l3 &= Self.mask51
        l4 &= Self.mask51
        let w0 = l0 | (l1 << 51)
        let w1 = (l1 >> 13) | (l2 << 38)
        let w2 = (l2 >> 26) | (l3 << 25)
        let w3 = (l3 >> 39) | (l4 << 12)
        var out = [UInt8](repeating: 0, count: 32)
        for (index, word) in [w0, w1, w2, w3].enumerated() {
            for byte in 0..<8 { out[index * 8 + byte] = UInt8(truncatingIfNeeded: word >> UInt64(8 * byte)) }
        }
        return out
    }

    /// True when the element is zero modulo p.
    package var isZero: Bool { littleEndianBytes.allSatisfy { $0 == 0 } }

    /// Propagates carries so every limb is below 2^51 (plus at most 19 * carry in limb 0).
    private func carried() -> FieldElement25519 {
        var (l0, l1, l2, l3, l4) = limbs
        l1 += l0 >> 51; l0 &= Self.mask51
        l2 += l1 >> 51; l1 &= Self.mask51
        l3 += l2 >> 51; l2 &= Self.mask51
        l4 += l3 >> 51; l3 &= Self.mask51
        l0 += 19 &* (l4 >> 51); l4 &= Self.mask51
        l1 += l0 >> 51; l0 &= Self.mask51
        return FieldElement25519(limbs: (l0, l1, l2, l3, l4))
    }

    package static func + (lhs: FieldElement25519, rhs: FieldElement25519) -> FieldElement25519 {
        FieldElement25519(limbs: (
            lhs.limbs.0 + rhs.limbs.0, lhs.limbs.1 + rhs.limbs.1, lhs.limbs.2 + rhs.limbs.2,
            lhs.limbs.3 + rhs.limbs.3, lhs.limbs.4 + rhs.limbs.4
        )).carried()
    }

    package static func - (lhs: FieldElement25519, rhs: FieldElement25519) -> FieldElement25519 {
        // Add 4p (limb-wise) before subtracting so no limb underflows; inputs are carried (< 2^52).
        let a = lhs.carried().limbs, b = rhs.carried().limbs
        let fourP0: UInt64 = 0x1F_FFFF_FFFF_FFB4, fourPi: UInt64 = 0x1F_FFFF_FFFF_FFFC
        return FieldElement25519(limbs: (
            a.0 + fourP0 - b.0, a.1 + fourPi - b.1, a.2 + fourPi - b.2, a.3 + fourPi - b.3, a.4 + fourPi - b.4
        )).carried()
    }

    package static func * (lhs: FieldElement25519, rhs: FieldElement25519) -> FieldElement25519 {
        let a = lhs.carried().limbs, b = rhs.carried().limbs
        let b1 = UInt128(b.1 * 19), b2 = UInt128(b.2 * 19), b3 = UInt128(b.3 * 19), b4 = UInt128(b.4 * 19)
        let a0 = UInt128(a.0), a1 = UInt128(a.1), a2 = UInt128(a.2), a3 = UInt128(a.3), a4 = UInt128(a.4)
        let c0 = a0 * UInt128(b.0) + a1 * b4 + a2 * b3 + a3 * b2 + a4 * b1
        var c1 = a0 * UInt128(b.1) + a1 * UInt128(b.0) + a2 * b4 + a3 * b3 + a4 * b2
        var c2 = a0 * UInt128(b.2) + a1 * UInt128(b.1) + a2 * UInt128(b.0) + a3 * b4 + a4 * b3
        var c3 = a0 * UInt128(b.3) + a1 * UInt128(b.2) + a2 * UInt128(b.1) + a3 * UInt128(b.0) + a4 * b4
        var c4 = a0 * UInt128(b.4) + a1 * UInt128(b.3) + a2 * UInt128(b.2) + a3 * UInt128(b.1) + a4 * UInt128(b.0)
        let mask = UInt128(mask51)
        c1 += c0 >> 51
        c2 += c1 >> 51
        c3 += c2 >> 51
        c4 += c3 >> 51
        let r0 = (c0 & mask) + 19 * (c4 >> 51)
        let r1 = (c1 & mask) + (r0 >> 51)
        return FieldElement25519(limbs: (
            UInt64(r0 & mask), UInt64(r1), UInt64(c2 & mask), UInt64(c3 & mask), UInt64(c4 & mask)
        )).carried()
    }

    /// Equality modulo p (compares canonical encodings).
    package static func == (lhs: FieldElement25519, rhs: FieldElement25519) -> Bool {
        lhs.littleEndianBytes == rhs.littleEndianBytes
    }

    /// The square of the element.
    package var squared: FieldElement25519 { self * self }

    /// Raises to a public exponent given as 32 little-endian bytes (square-and-multiply, MSB first).
    package func power(_ exponentLittleEndian: [UInt8]) -> FieldElement25519 {
        var result = FieldElement25519.one
        for byteIndex in stride(from: exponentLittleEndian.count - 1, through: 0, by: -1) {
            let byte = exponentLittleEndian[byteIndex]
            for bit in stride(from: 7, through: 0, by: -1) {
                result = result.squared
                if (byte >> UInt8(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// The multiplicative inverse (zero maps to zero), via Fermat: x^(p-2).
    package var inverted: FieldElement25519 { power(Self.pMinus2) }

    /// The Legendre symbol as x^((p-1)/2): one for non-zero squares, p-1 for non-squares, zero for zero.
    package var legendre: FieldElement25519 { power(Self.pMinus1Over2) }

    /// p - 2, little-endian.
    package static let pMinus2: [UInt8] = [0xEB] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
    /// (p - 1) / 2, little-endian.
    package static let pMinus1Over2: [UInt8] = [0xF6] + [UInt8](repeating: 0xFF, count: 30) + [0x3F]
    /// p itself, little-endian, for canonical-encoding checks.
    package static let modulus: [UInt8] = [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F]
}
