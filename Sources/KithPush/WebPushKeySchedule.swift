import Crypto
import Foundation

/// The RFC 8291 §3.3–3.4 key derivation for one message: from the ECDH secret and the auth secret
/// to the input keying material, then with the salt to the content-encryption key and nonce.
///
/// Internal: its intermediate values are exposed to tests (RFC 8291 Appendix A), never to callers.
struct WebPushKeySchedule: Sendable {
    /// `ecdh_secret`: the P-256 shared x-coordinate.
    let ecdhSecret: [UInt8]
    /// `PRK_key = HKDF-Extract(auth_secret, ecdh_secret)`.
    let authPRK: [UInt8]
    /// `IKM = HKDF-Expand(PRK_key, "WebPush: info" || 0x00 || ua_public || as_public, 32)`.
    let ikm: [UInt8]
    /// `PRK = HKDF-Extract(salt, IKM)`.
    let prk: [UInt8]
    /// `CEK = HKDF-Expand(PRK, "Content-Encoding: aes128gcm" || 0x00, 16)`.
    let contentEncryptionKey: [UInt8]
    /// `NONCE = HKDF-Expand(PRK, "Content-Encoding: nonce" || 0x00, 12)`; record 0's nonce (the XOR with SEQ = 0).
    let nonce: [UInt8]

    private static let keyInfoPrefix = Array("WebPush: info".utf8) + [0x00]
    private static let cekInfo = Array("Content-Encoding: aes128gcm".utf8) + [0x00]
    private static let nonceInfo = Array("Content-Encoding: nonce".utf8) + [0x00]

    /// Derives the schedule.
    ///
    /// - Parameters:
    ///   - privateKey: the local private key (`as_private` when encrypting, `ua_private` when decrypting).
    ///   - peerKey: the other side's public key.
    ///   - uaPublic: the user agent's 65-byte public key.
    ///   - asPublic: the application server's 65-byte ephemeral public key.
    ///   - authSecret: the 16-byte auth secret.
    ///   - salt: the 16-byte salt of the header.
    init(
        privateKey: P256.KeyAgreement.PrivateKey,
        peerKey: P256.KeyAgreement.PublicKey,
        uaPublic: [UInt8],
        asPublic: [UInt8],
        authSecret: [UInt8],
        salt: [UInt8]
    ) throws(WebPushError) {
        let shared: SharedSecret
        do { shared = try privateKey.sharedSecretFromKeyAgreement(with: peerKey) } catch { throw .keyAgreementFailed }
        ecdhSecret = shared.withUnsafeBytes { Array($0) }
        authPRK = Self.extract(salt: authSecret, inputKeyMaterial: ecdhSecret)
        ikm = Self.expand(prk: authPRK, info: Self.keyInfoPrefix + uaPublic + asPublic, count: 32)
        prk = Self.extract(salt: salt, inputKeyMaterial: ikm)
        contentEncryptionKey = Self.expand(prk: prk, info: Self.cekInfo, count: 16)
        nonce = Self.expand(prk: prk, info: Self.nonceInfo, count: 12)
    }

    private static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        let code = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: inputKeyMaterial), salt: salt)
        return Array(code)
    }

    private static func expand(prk: [UInt8], info: [UInt8], count: Int) -> [UInt8] {
        HKDF<SHA256>.expand(pseudoRandomKey: prk, info: info, outputByteCount: count).withUnsafeBytes { Array($0) }
    }
}
