import Crypto
import Foundation

/// Kith's Ed25519 verification rule (docs/FEED-FORMAT.md section 2, "Ed25519 verification rule"): strict RFC 8032.
///
/// - **Public keys** are checked once, when they enter Kith (a card, a key rotation, a key on
///   the command line, a stored feed): canonical encoding (y < p, and no "negative zero" x),
///   on the curve, not of small order, and in the prime-order subgroup. So no key can verify a
///   signature on every message, and a key has no small-order component on which verifiers
///   that multiply by the cofactor and verifiers that do not could disagree.
/// - **Signatures** must have a canonical S (S < L) and a canonically encoded R (y < p); then
///   the cofactorless equation [S]B = R + [k]A is checked by swift-crypto, comparing encodings.
///
/// Every check is on public data only; none depends on a secret.
public enum StrictEd25519 {
    /// The order of the prime subgroup, L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    package static let groupOrder: [UInt8] = [
        0xED, 0xD3, 0xF5, 0x5C, 0x1A, 0x63, 0x12, 0x58, 0xD6, 0x9C, 0xF7, 0xA2, 0xDE, 0xF9, 0xDE, 0x14,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
    ]

    /// Canonical u-coordinates of the small-order points of Curve25519 (orders 1, 2, 4, 8, 8; the
    /// eight Edwards small-order points map onto these five).
    package static let lowOrderMontgomeryU: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [0x01] + [UInt8](repeating: 0, count: 31),
        [0xE0, 0xEB, 0x7A, 0x7C, 0x3B, 0x41, 0xB8, 0xAE, 0x16, 0x56, 0xE3, 0xFA, 0xF1, 0x9F, 0xC4, 0x6A,
         0xDA, 0x09, 0x8D, 0xEB, 0x9C, 0x32, 0xB1, 0xFD, 0x86, 0x62, 0x05, 0x16, 0x5F, 0x49, 0xB8, 0x00],
        [0x5F, 0x9C, 0x95, 0xBC, 0xA3, 0x50, 0x8C, 0x24, 0xB1, 0xD0, 0xB1, 0x55, 0x9C, 0x83, 0xEF, 0x5B,
         0x04, 0x44, 0x5C, 0xC4, 0x58, 0x1C, 0x8E, 0x86, 0xD8, 0x22, 0x4E, 0xDD, 0xD0, 0x9F, 0x11, 0x57],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]

    /// Checks a public key against the rule.
    /// - Returns: the key's X25519 u-coordinate (canonical, 32 bytes), which the ratchet reuses.
    /// - Throws: ``Ed25519Error`` naming the first rule the key breaks.
    @discardableResult
    public static func validatePublicKey(_ raw: some Collection<UInt8>) throws(Ed25519Error) -> [UInt8] {
        let bytes = Array(raw)
        guard bytes.count == 32 else { throw .invalidLength(expected: 32, actual: bytes.count) }
        var yBytes = bytes
        yBytes[31] &= 0x7F
        let y = FieldElement25519(littleEndian: yBytes)
        guard y.littleEndianBytes == yBytes else { throw .nonCanonicalEncoding }
        let ySquared = y.squared
        let xSquared = (ySquared - .one) * (edwardsD * ySquared + .one).inverted
        if xSquared.legendre == minusOne { throw .notOnCurve }
        if xSquared.isZero && bytes[31] & 0x80 != 0 { throw .nonCanonicalEncoding }
        // The birational map to Montgomery: u = (1 + y) / (1 - y); y = 1 is the identity.
        let oneMinusY = FieldElement25519.one - y
        guard !oneMinusY.isZero else { throw .smallOrder }
        let u = ((FieldElement25519.one + y) * oneMinusY.inverted).littleEndianBytes
        if lowOrderMontgomeryU.contains(u) { throw .smallOrder }
        guard multiplyByGroupOrderIsIdentity(FieldElement25519(littleEndian: u)) else { throw .notInPrimeOrderSubgroup }
        return u
    }

    /// Checks a signature's encoding against the rule: 64 bytes, R canonically encoded, S < L.
    public static func validateSignatureEncoding(_ signature: some Collection<UInt8>) throws(Ed25519Error) {
        guard signature.count == 64 else { throw .invalidLength(expected: 64, actual: signature.count) }
        let bytes = Array(signature)
        // R's y is below p unless it is 2^255 - 19 ... 2^255 - 1 (bytes ED..FF, FF x 30, 7F).
        if bytes[31] & 0x7F == 0x7F, bytes[1..<31].allSatisfy({ $0 == 0xFF }), bytes[0] >= 0xED { throw .nonCanonicalEncoding }
        guard isBelowGroupOrder(bytes[32..<64]) else { throw .nonCanonicalScalar }
    }

    /// True when the 32 little-endian bytes are a scalar below L.
    package static func isBelowGroupOrder(_ scalar: ArraySlice<UInt8>) -> Bool {
        var index = 31
        while index >= 0 {
            let byte = scalar[scalar.startIndex + index]
            if byte != groupOrder[index] { return byte < groupOrder[index] }
            index -= 1
        }
        return false
    }

    /// Verifies `signature` over `message` with an already validated key: the signature's
    /// encoding rule, then swift-crypto's cofactorless verification.
    @inlinable
    public static func isValidSignature(
        _ signature: some Collection<UInt8>, for message: some DataProtocol, publicKey: Curve25519.Signing.PublicKey
    ) -> Bool {
        guard (try? validateSignatureEncoding(signature)) != nil else { return false }
        return publicKey.isValidSignature(Array(signature), for: message)
    }

    // MARK: Internals

    package static let minusOne = FieldElement25519.zero - .one

    /// d = -121665 / 121666, the Ed25519 curve constant.
    package static let edwardsD = FieldElement25519(littleEndian: [
        0xA3, 0x78, 0x59, 0x13, 0xCA, 0x4D, 0xEB, 0x75, 0xAB, 0xD8, 0x41, 0x41, 0x4D, 0x0A, 0x70, 0x00,
        0x98, 0xE8, 0x79, 0x77, 0x79, 0x40, 0xC7, 0x8C, 0x73, 0xFE, 0x6F, 0x2B, 0xEE, 0x6C, 0x03, 0x52,
    ])

    /// Runs the x-only Montgomery ladder (RFC 7748, no clamping) with scalar L and reports whether
    /// the result is the point at infinity, i.e. whether the point lies in the prime-order subgroup.
    static func multiplyByGroupOrderIsIdentity(_ u: FieldElement25519) -> Bool {
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

extension Curve25519.Signing.PublicKey {
    /// Verifies a signature under Kith's strict rule (``StrictEd25519``): S < L and R canonical,
    /// then the cofactorless equation. The key itself is assumed validated when it entered Kith
    /// (``StrictEd25519/validatePublicKey(_:)``).
    @inlinable
    public func isValidStrictSignature(_ signature: some Collection<UInt8>, for message: some DataProtocol) -> Bool {
        StrictEd25519.isValidSignature(signature, for: message, publicKey: self)
    }
}
