import Crypto
import Foundation

/// The AEAD of a cipher suite, used with caller-supplied nonces (RFC 9420 §6.3).
public enum AEADAlgorithm: Sendable, Hashable {
    /// AES-128-GCM.
    case aes128GCM
    /// AES-256-GCM.
    case aes256GCM
    /// ChaCha20-Poly1305.
    case chaCha20Poly1305

    /// Key size in bytes (`AEAD.Nk`).
    public var keySize: Int {
        switch self {
        case .aes128GCM: 16
        case .aes256GCM, .chaCha20Poly1305: 32
        }
    }

    /// Nonce size in bytes (`AEAD.Nn`).
    public var nonceSize: Int { 12 }

    /// Tag size in bytes.
    public var tagSize: Int { 16 }

    private func check(key: [UInt8], nonce: [UInt8]) throws {
        guard key.count == keySize else { throw MLSCryptoError.invalidLength("AEAD key of \(key.count) bytes, expected \(keySize)") }
        guard nonce.count == nonceSize else { throw MLSCryptoError.invalidLength("AEAD nonce of \(nonce.count) bytes, expected \(nonceSize)") }
    }

    /// Encrypts `plaintext`, returning `ciphertext || tag`.
    public func seal(key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> [UInt8] {
        try check(key: key, nonce: nonce)
        let symmetricKey = SymmetricKey(data: key)
        do {
            switch self {
            case .aes128GCM, .aes256GCM:
                let box = try AES.GCM.seal(plaintext, using: symmetricKey, nonce: AES.GCM.Nonce(data: nonce), authenticating: aad)
                return Array(box.ciphertext) + Array(box.tag)
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.seal(plaintext, using: symmetricKey, nonce: ChaChaPoly.Nonce(data: nonce), authenticating: aad)
                return Array(box.ciphertext) + Array(box.tag)
            }
        } catch {
            throw MLSCryptoError.encryptionFailed("\(self): \(error)")
        }
    }

    /// Decrypts `ciphertext || tag`, throwing ``MLSCryptoError/decryptionFailed(_:)`` when authentication fails.
    public func open(key: [UInt8], nonce: [UInt8], aad: [UInt8], ciphertext: [UInt8]) throws -> [UInt8] {
        try check(key: key, nonce: nonce)
        guard ciphertext.count >= tagSize else { throw MLSCryptoError.decryptionFailed("ciphertext shorter than the AEAD tag") }
        let symmetricKey = SymmetricKey(data: key)
        let body = ciphertext[..<(ciphertext.count - tagSize)]
        let tag = ciphertext[(ciphertext.count - tagSize)...]
        do {
            switch self {
            case .aes128GCM, .aes256GCM:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: body, tag: tag)
                return Array(try AES.GCM.open(box, using: symmetricKey, authenticating: aad))
            case .chaCha20Poly1305:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: body, tag: tag)
                return Array(try ChaChaPoly.open(box, using: symmetricKey, authenticating: aad))
            }
        } catch {
            throw MLSCryptoError.decryptionFailed("\(self) authentication failed")
        }
    }

    /// The RFC 9180 AEAD identifier.
    var hpkeIdentifier: UInt16 {
        switch self {
        case .aes128GCM: 0x0001
        case .aes256GCM: 0x0002
        case .chaCha20Poly1305: 0x0003
        }
    }
}
