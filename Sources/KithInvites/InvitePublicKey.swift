import CSecp256k1
import KithCanonical

/// A secp256k1 public key, kept in its 65-byte uncompressed form `0x04 ‖ X ‖ Y`.
public struct InvitePublicKey: Sendable, Hashable {
    /// `0x04 ‖ X(32) ‖ Y(32)`.
    public let uncompressed: [UInt8]

    /// Parses a 33-byte compressed or 65-byte uncompressed encoding.
    ///
    /// - Throws: ``InviteError/invalidPublicKey`` unless libsecp256k1 accepts the bytes as a curve point.
    public init<Bytes: Collection>(_ encoded: Bytes) throws(InviteError) where Bytes.Element == UInt8 {
        let input = Array(encoded)
        guard input.count == 33 || input.count == 65 else { throw .invalidPublicKey }
        var output = [UInt8](repeating: 0, count: 65)
        let ok = kith_secp256k1_public_key_convert(input, input.count, 0, &output, 65)
        guard ok == 1 else { throw .invalidPublicKey }
        uncompressed = output
    }

    init(trustedUncompressed bytes: [UInt8]) {
        uncompressed = bytes
    }

    /// The 33-byte compressed encoding `0x02|0x03 ‖ X`.
    public var compressed: [UInt8] {
        var output = [UInt8](repeating: 0, count: 33)
        // The stored form was produced or accepted by libsecp256k1, so conversion cannot fail.
        _ = kith_secp256k1_public_key_convert(uncompressed, 65, 1, &output, 33)
        return output
    }

    /// The Ethereum-style address: the last 20 bytes of Keccak-256 over `X ‖ Y`.
    public var address: [UInt8] {
        Array(Keccak256.hash(uncompressed[1...]).suffix(20))
    }

    /// Constant-time comparison with another encoding of a key (33 or 65 bytes); different lengths are compared
    /// in the compressed form, as Convos does. False for anything that is not a key.
    public func matches<Bytes: Collection>(_ other: Bytes) -> Bool where Bytes.Element == UInt8 {
        let otherBytes = Array(other)
        if otherBytes.count == 65 { return ConstantTime.equals(uncompressed, otherBytes) }
        guard otherBytes.count == 33 else { return false }
        return ConstantTime.equals(compressed, otherBytes)
    }
}
