import Crypto
import Foundation

extension NanoTDF {
    /// The payload key derivation of the format (spec §4): `HKDF-SHA256(IKM = ECDH x, salt = SHA256(magic ‖ version), info = "", L = 32)`.
    public enum KeyDerivation {
        /// Derives the 32-byte data encryption key from a private key and the other side's public key.
        public static func dataKey(
            privateKey: PrivateKey, peerPublicKey: PublicKey, version: Version
        ) throws(NanoTDFError) -> SymmetricKey {
            let secret = try privateKey.sharedSecret(with: peerPublicKey)
            return secret.hkdfDerivedSymmetricKey(
                using: SHA256.self, salt: version.hkdfSalt, sharedInfo: [UInt8](), outputByteCount: 32)
        }
    }
}
