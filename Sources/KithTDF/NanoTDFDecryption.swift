import Crypto
import Foundation

extension NanoTDF {
    /// Decrypts the payload with the recipient's private key.
    ///
    /// In order: the policy binding, the signature (if any), the encrypted policy's tag (if any),
    /// then the payload tag are verified; no plaintext is returned unless all of them pass.
    public func decrypt(using recipientKey: PrivateKey) throws(NanoTDFError) -> [UInt8] {
        try verifyPolicyBinding()
        if signature != nil { try verifySignature() }
        let key = try dataKey(using: recipientKey)
        if case .embeddedEncrypted = header.policy.body {
            guard payload.iv != [0, 0, 0] else { throw .zeroPayloadIV }
            _ = try decryptedPolicy(with: key)
        }
        return try NanoTDFGCM.open(
            ciphertext: payload.ciphertext, tag: payload.tag, key: key,
            nonce: NanoTDFGCM.payloadNonce(iv: payload.iv), field: "payload")
    }

    /// The payload key (DEK): ECDH of `recipientKey` with the header's ephemeral key, then HKDF with the version's salt.
    public func dataKey(using recipientKey: PrivateKey) throws(NanoTDFError) -> SymmetricKey {
        try dataKey(using: recipientKey, saltOf: header.version)
    }

    /// The payload key with HKDF salted by SHA-256 of `saltVersion`'s magic (a dialect may differ from the header's).
    func dataKey(using recipientKey: PrivateKey, saltOf saltVersion: Version) throws(NanoTDFError) -> SymmetricKey {
        guard recipientKey.curve == header.ephemeralCurve else {
            if header.ephemeralCurve == .secp256k1 { throw .unsupportedCurve(.secp256k1) }
            throw .curveMismatch(expected: header.ephemeralCurve, actual: recipientKey.curve)
        }
        let ephemeral = try PublicKey(
            curve: header.ephemeralCurve, compressedRepresentation: header.ephemeralPublicKey, field: "ephemeral public key")
        return try KeyDerivation.dataKey(privateKey: recipientKey, peerPublicKey: ephemeral, version: saltVersion)
    }

    /// The policy in clear: the embedded plaintext, or the embedded encrypted policy after its tag verifies.
    public func policy(using recipientKey: PrivateKey) throws(NanoTDFError) -> [UInt8] {
        switch header.policy.body {
        case .embeddedPlaintext(let content): content
        case .embeddedEncrypted: try decryptedPolicy(with: try dataKey(using: recipientKey))
        case .remote, .embeddedEncryptedWithKeyAccess: throw .policyNotDecryptable
        }
    }

    private func decryptedPolicy(with key: SymmetricKey) throws(NanoTDFError) -> [UInt8] {
        guard case .embeddedEncrypted(let content) = header.policy.body else { throw .policyNotDecryptable }
        let tagSize = header.cipher.tagSize
        guard content.count >= tagSize else { throw .policyShorterThanTag(length: content.count, tagSize: tagSize) }
        return try NanoTDFGCM.open(
            ciphertext: Array(content.dropLast(tagSize)), tag: Array(content.suffix(tagSize)), key: key,
            nonce: NanoTDFGCM.policyNonce, field: "encrypted policy")
    }
}
