import Crypto
import Foundation
import KithIdentity

/// Encryption for `audience = "self"` (spec 4.4): ChaCha20-Poly1305 under the journal key.
///
/// nonce = SHA-256(uint64_be(sequence) || ASCII(feed_id))[0..<12]; no associated data.
/// The output is ciphertext || 16-byte tag (the nonce is not transmitted: it is derived).
/// A (feed, sequence) pair is signed at most once, so the nonce is never reused with one key.
public enum SelfAudienceCipher {
    /// The 12-byte nonce for a message position.
    public static func nonce(sequence: UInt32, feedID: FeedID) -> [UInt8] {
        var input = [UInt8]()
        input.reserveCapacity(8 + 43)
        for shift in stride(from: 56, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: UInt64(sequence) >> UInt64(shift))) }
        input.append(contentsOf: feedID.string.utf8)
        return Array(SHA256.hash(data: input).prefix(12))
    }

    /// Encrypts content for the author alone.
    public static func seal(_ plaintext: [UInt8], key: SymmetricKey, sequence: UInt32, feedID: FeedID) throws(FeedError) -> [UInt8] {
        do {
            let nonce = try ChaChaPoly.Nonce(data: nonce(sequence: sequence, feedID: feedID))
            let box = try ChaChaPoly.seal(plaintext, using: key, nonce: nonce)
            return Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .decryptionFailed("self encryption failed: \(error)")
        }
    }

    /// Decrypts self content; fails unless `key` is the author's journal key.
    public static func open(_ sealed: [UInt8], key: SymmetricKey, sequence: UInt32, feedID: FeedID) throws(FeedError) -> [UInt8] {
        guard sealed.count >= 16 else { throw .decryptionFailed("self content shorter than its 16-byte tag") }
        do {
            let nonce = try ChaChaPoly.Nonce(data: nonce(sequence: sequence, feedID: feedID))
            let box = try ChaChaPoly.SealedBox(nonce: nonce, ciphertext: sealed.dropLast(16), tag: sealed.suffix(16))
            return Array(try ChaChaPoly.open(box, using: key))
        } catch {
            throw .decryptionFailed("self content does not open with this journal key")
        }
    }
}
