extension NanoTDF {
    /// The elliptic curve codes of the ECC mode and signature fields.
    public enum Curve: UInt8, Sendable, Equatable, CaseIterable, CustomStringConvertible {
        /// NIST P-256: the curve Kith writes.
        case secp256r1 = 0
        /// NIST P-384: read and decrypted.
        case secp384r1 = 1
        /// NIST P-521: read and decrypted.
        case secp521r1 = 2
        /// secp256k1: parsed, but swift-crypto cannot compute with it.
        case secp256k1 = 3

        /// Size of a scalar or coordinate on this curve.
        public var coordinateSize: Int {
            switch self {
            case .secp256r1, .secp256k1: 32
            case .secp384r1: 48
            case .secp521r1: 66
            }
        }

        /// Size of a compressed X9.62 public key: one prefix byte plus one coordinate.
        public var compressedKeySize: Int { coordinateSize + 1 }

        /// The curve's common name.
        public var description: String {
            switch self {
            case .secp256r1: "secp256r1"
            case .secp384r1: "secp384r1"
            case .secp521r1: "secp521r1"
            case .secp256k1: "secp256k1"
            }
        }

        static func decode(_ code: UInt8, field: String) throws(NanoTDFError) -> Curve {
            guard let curve = Curve(rawValue: code) else { throw .unknownCurve(code, field: field) }
            return curve
        }

        /// Reads a compressed public key on this curve (prefix 0x02 or 0x03; the point itself is checked when used).
        func readCompressedKey(from cursor: inout NanoTDFCursor, field: String) throws(NanoTDFError) -> [UInt8] {
            let key = try cursor.read(compressedKeySize, field)
            guard key[0] == 0x02 || key[0] == 0x03 else { throw .invalidPublicKey(field: field) }
            return key
        }
    }
}
