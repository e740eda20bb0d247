import Crypto
import KithCanonical
import KithEd25519

/// The dh_key published as the X3DH signed prekey: `id u32 | public_key 32 | signature 64`.
///
/// The signature is Ed25519 by the identity key over `"Kith_SPK_v1" || uint32_be(id) || public_key`.
public struct SignedPrekey: Sendable, Equatable {
    /// Encoded size in bytes.
    public static let encodedSize = 4 + 32 + 64

    /// A number distinguishing successive dh_keys (key rotation).
    public let id: UInt32
    /// The X25519 public key.
    public let publicKey: [UInt8]
    /// The Ed25519 signature.
    public let signature: [UInt8]

    /// Signs `publicKey` under `identityKey`.
    public static func sign(id: UInt32, publicKey: Curve25519.KeyAgreement.PublicKey, identityKey: Curve25519.Signing.PrivateKey) throws(RatchetError) -> SignedPrekey {
        let key = Array(publicKey.rawRepresentation)
        do {
            let signature = try identityKey.signature(for: signedBytes(id: id, publicKey: key))
            return SignedPrekey(id: id, publicKey: key, signature: Array(signature))
        } catch {
            throw .invalidSignedPrekeySignature
        }
    }

    /// Reads the 100-byte encoding and verifies the signature under `identityKey` (Ed25519, 32 bytes).
    public static func decode(_ bytes: [UInt8], identityKey: [UInt8]) throws(RatchetError) -> SignedPrekey {
        var reader = ByteReader(bytes)
        let id: UInt32, key: [UInt8], signature: [UInt8]
        do {
            id = try reader.readUInt32()
            key = try reader.readBytes(32)
            signature = try reader.readBytes(64)
            try reader.expectEnd()
        } catch {
            throw .malformed("signed prekey: \(error)")
        }
        let record = SignedPrekey(id: id, publicKey: key, signature: signature)
        try record.verify(identityKey: identityKey)
        _ = try X25519Agreement.publicKey(key)
        return record
    }

    /// The 100-byte encoding.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: Self.encodedSize)
        writer.write(id)
        writer.write(bytes: publicKey)
        writer.write(bytes: signature)
        return writer.bytes
    }

    /// Throws ``RatchetError/invalidSignedPrekeySignature`` unless the signature verifies.
    public func verify(identityKey: [UInt8]) throws(RatchetError) {
        guard let verifier = try? Curve25519.Signing.PublicKey(rawRepresentation: identityKey),
              verifier.isValidStrictSignature(signature, for: Self.signedBytes(id: id, publicKey: publicKey))
        else { throw .invalidSignedPrekeySignature }
    }

    private init(id: UInt32, publicKey: [UInt8], signature: [UInt8]) {
        self.id = id
        self.publicKey = publicKey
        self.signature = signature
    }

    private static func signedBytes(id: UInt32, publicKey: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: 47)
        writer.write(bytes: RatchetConstants.signedPrekeyLabel)
        writer.write(id)
        writer.write(bytes: publicKey)
        return writer.bytes
    }
}
