import Crypto
import Foundation
import KithCanonical

/// AES-256-GCM with NanoTDF's nonces and tag sizes on top of swift-crypto.
///
/// swift-crypto only opens 16-byte tags; for a truncated tag the ciphertext is run through the
/// same keystream (GCM encryption is CTR from `nonce ‖ 00000002`, an involution), the full tag of
/// the candidate plaintext is recomputed, and its prefix is compared in constant time before any
/// plaintext is returned.
enum NanoTDFGCM {
    /// The 12-byte nonce of a payload: `00×9 ‖ iv`.
    static func payloadNonce(iv: [UInt8]) -> [UInt8] { [UInt8](repeating: 0, count: 9) + iv }

    /// The 12-byte zero nonce of an encrypted policy.
    static let policyNonce = [UInt8](repeating: 0, count: NanoTDFLimits.gcmNonceSize)

    static func seal(
        _ plaintext: [UInt8], key: SymmetricKey, nonce: [UInt8], tagSize: Int
    ) throws(NanoTDFError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: AES.GCM.Nonce(data: nonce))
            return (Array(box.ciphertext), Array(box.tag.prefix(tagSize)))
        } catch {
            throw .cryptoFailure("AES-GCM seal")
        }
    }

    static func open(
        ciphertext: [UInt8], tag: [UInt8], key: SymmetricKey, nonce: [UInt8], field: String
    ) throws(NanoTDFError) -> [UInt8] {
        let gcmNonce: AES.GCM.Nonce
        do { gcmNonce = try AES.GCM.Nonce(data: nonce) } catch { throw .cryptoFailure("AES-GCM nonce") }
        if tag.count == 16 {
            do {
                let box = try AES.GCM.SealedBox(nonce: gcmNonce, ciphertext: ciphertext, tag: tag)
                return Array(try AES.GCM.open(box, using: key))
            } catch {
                throw .authenticationFailed(field: field)
            }
        }
        let candidate: [UInt8]
        let fullTag: [UInt8]
        do {
            candidate = Array(try AES.GCM.seal(ciphertext, using: key, nonce: gcmNonce).ciphertext)
            fullTag = Array(try AES.GCM.seal(candidate, using: key, nonce: gcmNonce).tag)
        } catch {
            throw .cryptoFailure("AES-GCM keystream")
        }
        guard tag.count >= 8, ConstantTime.equals(fullTag.prefix(tag.count), tag) else {
            throw .authenticationFailed(field: field)
        }
        return candidate
    }
}
