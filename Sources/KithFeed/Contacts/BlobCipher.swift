import Crypto
import Foundation
import KithCanonical

/// Encryption of attachments before they are stored or transferred (docs/FEED-FORMAT.md section 11, "Blobs").
///
///     blob = version u8 = 0x01 || ChaCha20-Poly1305(blob_key, nonce = 12 zero bytes,
///                                                   plaintext, aad = "Kith_Blob_v1") || tag 16
///     content_hash = base64url(SHA-256(blob))          (the post's `attachments` entry)
///
/// `blob_key` is 32 fresh random bytes per attachment (so the fixed nonce is never reused with a
/// key); the post carries it in `attachment_keys`, parallel to `attachments`. Anyone can check a
/// blob against its hash and relay it; only readers of the post can decrypt it.
public enum BlobCipher {
    /// An encrypted attachment ready to store.
    public struct Sealed: Sendable, Hashable {
        /// The encrypted blob bytes.
        public let blob: [UInt8]
        /// base64url(SHA-256(blob)).
        public let contentHash: String
        /// The 32-byte key, base64url.
        public let key: String
    }

    /// Encrypts an attachment under a fresh key (or `fixedKey`, for vectors).
    public static func seal(_ plaintext: [UInt8], fixedKey: [UInt8]? = nil) throws(ContactsCipherError) -> Sealed {
        guard plaintext.count <= ContactsLimits.maxBlobPlaintextBytes else {
            throw .malformedBlob("\(plaintext.count) bytes; at most \(ContactsLimits.maxBlobPlaintextBytes)")
        }
        let key = fixedKey ?? ContactsAudienceCipher.randomBytes(32)
        guard key.count == 32 else { throw .malformedBlob("a blob key is 32 bytes") }
        do {
            let box = try ChaChaPoly.seal(plaintext, using: SymmetricKey(data: key), nonce: try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12)), authenticating: ContactsLimits.blobAssociatedData)
            let blob = [ContactsLimits.blobVersion] + Array(box.ciphertext) + Array(box.tag)
            return Sealed(blob: blob, contentHash: contentHash(of: blob), key: Base64URL.encode(key))
        } catch {
            throw .malformedBlob("\(error)")
        }
    }

    /// Checks a blob against its hash and decrypts it with its key (base64url).
    public static func open(_ blob: [UInt8], contentHash expected: String, key: String) throws(ContactsCipherError) -> [UInt8] {
        guard ConstantTime.equals(Array(contentHash(of: blob).utf8), Array(expected.utf8)) else { throw .blobHashMismatch }
        guard blob.count >= 1 + ContactsLimits.tagBytes, blob.count <= ContactsLimits.maxBlobPlaintextBytes + 17 else {
            throw .malformedBlob("\(blob.count) bytes is not a possible blob size")
        }
        guard blob[0] == ContactsLimits.blobVersion else { throw .malformedBlob("unknown blob version \(blob[0])") }
        let keyBytes: [UInt8]
        do { keyBytes = try Base64URL.decode(key, expectedLength: 32) } catch { throw .malformedBlob("key: \(error.description)") }
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: try ChaChaPoly.Nonce(data: [UInt8](repeating: 0, count: 12)),
                ciphertext: blob[1..<(blob.count - 16)], tag: blob.suffix(16)
            )
            return Array(try ChaChaPoly.open(box, using: SymmetricKey(data: keyBytes), authenticating: ContactsLimits.blobAssociatedData))
        } catch {
            throw .authenticationFailed
        }
    }

    /// base64url(SHA-256(blob)).
    public static func contentHash(of blob: [UInt8]) -> String {
        Base64URL.encode(SHA256.hash(data: blob))
    }
}
