import Crypto

/// Converts Ed25519 identity keys to X25519 keys so the identity key can take part in X3DH.
///
/// Public keys use the birational map `u = (1 + y) / (1 - y) mod 2^255 - 19`; private keys are the
/// clamped first half of `SHA-512(seed)`, the scalar Ed25519 itself signs with. Both sides of a
/// DH therefore agree: `X25519(convert(a), convert(B)) == X25519(convert(b), convert(A))`.
/// The same map is libsodium's `crypto_sign_ed25519_pk_to_curve25519` / `_sk_to_curve25519`.
public enum EdwardsToMontgomery {
    /// Converts an Ed25519 public key (32 bytes) to the X25519 u-coordinate (32 bytes).
    ///
    /// - Throws: ``RatchetError/invalidKeyLength(expected:actual:)``,
    ///   ``RatchetError/invalidEd25519PublicKey`` (non-canonical y or not on the curve),
    ///   ``RatchetError/lowOrderPoint`` (one of the eight small-order points) or
    ///   ``RatchetError/notInPrimeOrderSubgroup`` (a mixed-order point).
    public static func publicKey(fromEd25519 publicKey: [UInt8]) throws(RatchetError) -> [UInt8] {
        guard publicKey.count == RatchetConstants.ed25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.ed25519KeySize, actual: publicKey.count)
        }
        var yBytes = publicKey
        yBytes[31] &= 0x7F
        let y = FieldElement25519(littleEndian: yBytes)
        guard y.littleEndianBytes == yBytes else { throw .invalidEd25519PublicKey }
        let ySquared = y.squared
        let numerator = ySquared - .one
        let denominator = edwardsD * ySquared + .one
        let xSquared = numerator * denominator.inverted
        if xSquared.legendre == minusOne { throw .invalidEd25519PublicKey }
        if xSquared.isZero && publicKey[31] & 0x80 != 0 { throw .invalidEd25519PublicKey }
        let oneMinusY = FieldElement25519.one - y
        guard !oneMinusY.isZero else { throw .lowOrderPoint }
        let u = (FieldElement25519.one + y) * oneMinusY.inverted
        let uBytes = u.littleEndianBytes
        if lowOrderMontgomeryU.contains(where: { ByteComparison.equal($0, uBytes) }) { throw .lowOrderPoint }
        guard multiplyByGroupOrderIsIdentity(u) else { throw .notInPrimeOrderSubgroup }
        return uBytes
    }

    /// Converts an Ed25519 private key seed (32 bytes) to the clamped X25519 private scalar.
    public static func privateKey(fromEd25519Seed seed: [UInt8]) throws(RatchetError) -> [UInt8] {
        guard seed.count == RatchetConstants.ed25519KeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.ed25519KeySize, actual: seed.count)
        }
        var scalar = Array(SHA512.hash(data: seed).prefix(32))
        scalar[0] &= 248
        scalar[31] &= 127
        scalar[31] |= 64
        return scalar
    }

    /// Converts a signing key to an X25519 key-agreement key.
    public static func keyAgreementKey(from signingKey: Curve25519.Signing.PrivateKey) throws(RatchetError) -> Curve25519.KeyAgreement.PrivateKey {
        let scalar = try privateKey(fromEd25519Seed: Array(signingKey.rawRepresentation))
        do {
            return try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: scalar)
        } catch {
            throw .invalidKeyLength(expected: 32, actual: scalar.count)
        }
    }

    /// Converts a signature-verification key to an X25519 key-agreement public key.
    public static func keyAgreementKey(from publicKey: Curve25519.Signing.PublicKey) throws(RatchetError) -> Curve25519.KeyAgreement.PublicKey {
        let u = try self.publicKey(fromEd25519: Array(publicKey.rawRepresentation))
        do {
            return try Curve25519.KeyAgreement.PublicKey(rawRepresentation: u)
        } catch {
            throw .invalidKeyLength(expected: 32, actual: u.count)
        }
    }

    // MARK: Internals

    private static let minusOne = FieldElement25519.zero - .one

    /// d = -121665 / 121666, the Ed25519 curve constant.
    private static let edwardsD = FieldElement25519(littleEndian: [
        0xA3, 0x78, 0x59, 0x13, 0xCA, 0x4D, 0xEB, 0x75, 0xAB, 0xD8, 0x41, 0x41, 0x4D, 0x0A, 0x70, 0x00,
        0x98, 0xE8, 0x79, 0x77, 0x79, 0x40, 0xC7, 0x8C, 0x73, 0xFE, 0x6F, 0x2B, 0xEE, 0x6C, 0x03, 0x52,
    ])

    /// The order of the prime subgroup, L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    private static let groupOrder: [UInt8] = [
        0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ]

    /// Canonical u-coordinates of the small-order points of Curve25519 (orders 2, 4, 8, 8, 4).
    static let lowOrderMontgomeryU: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [0x01] + [UInt8](repeating: 0, count: 31),
        [0xE0, 0xEB, 0x7A, 0x7C, 0x3B, 0x41, 0xB8, 0xAE, 0x16, 0x56, 0xE3, 0xFA, 0xF1, 0x9F, 0xC4, 0x6A,
         0xDA, 0x09, 0x8D, 0xEB, 0x9C, 0x32, 0xB1, 0xFD, 0x86, 0x62, 0x05, 0x16, 0x5F, 0x49, 0xB8, 0x00],
        [0x5F, 0x9C, 0x95, 0xBC, 0xA3, 0x50, 0x8C, 0x24, 0xB1, 0xD0, 0xB1, 0x55, 0x9C, 0x83, 0xEF, 0x5B,
         0x04, 0x44, 0x5C, 0xC4, 0x58, 0x1C, 0x8E, 0x86, 0xD8, 0x22, 0x4E, 0xDD, 0xD0, 0x9F, 0x11, 0x57],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]

    /// Runs the x-only Montgomery ladder (RFC 7748, no clamping) with scalar L and reports whether
    /// the result is the point at infinity, i.e. whether the point lies in the prime-order subgroup.
    private static func multiplyByGroupOrderIsIdentity(_ u: FieldElement25519) -> Bool {
        let a24 = FieldElement25519(121_665)
        var x2 = FieldElement25519.one, z2 = FieldElement25519.zero
        var x3 = u, z3 = FieldElement25519.one
        var swapped = false
        for bitIndex in stride(from: 252, through: 0, by: -1) {
            let bit = (groupOrder[bitIndex / 8] >> UInt8(bitIndex % 8)) & 1 == 1
            if bit != swapped { swap(&x2, &x3); swap(&z2, &z3) }
            swapped = bit
            let a = x2 + z2, aa = a.squared, b = x2 - z2, bb = b.squared, e = aa - bb
            let c = x3 + z3, d = x3 - z3, da = d * a, cb = c * b
            x3 = (da + cb).squared
            z3 = u * (da - cb).squared
            x2 = aa * bb
            z2 = e * (aa + a24 * e)
        }
        if swapped { swap(&x2, &x3); swap(&z2, &z3) }
        return z2.isZero
    }
}
