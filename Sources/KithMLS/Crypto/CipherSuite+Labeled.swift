/// The labeled derivation, signing and encryption functions of RFC 9420 §5.1–5.2 and §8.
extension CipherSuite {
    private static func prefixed(_ label: String) -> [UInt8] { Array((MLSLimits.labelPrefix + label).utf8) }

    /// `ExpandWithLabel(secret, label, context, length)`.
    public func expandWithLabel(secret: [UInt8], label: String, context: [UInt8], length: Int) throws -> [UInt8] {
        guard length >= 0, length <= Int(UInt16.max) else { throw MLSCryptoError.invalidLength("ExpandWithLabel length \(length)") }
        var info = TLSWriter()
        info.writeUInt16(UInt16(length))
        info.writeOpaque(Self.prefixed(label))
        info.writeOpaque(context)
        return try hash.expand(prk: secret, info: info.bytes, length: length)
    }

    /// `DeriveSecret(secret, label)`.
    public func deriveSecret(secret: [UInt8], label: String) throws -> [UInt8] {
        try expandWithLabel(secret: secret, label: label, context: [], length: secretSize)
    }

    /// `DeriveTreeSecret(secret, label, generation, length)` (RFC 9420 §9).
    public func deriveTreeSecret(secret: [UInt8], label: String, generation: UInt32, length: Int) throws -> [UInt8] {
        var context = TLSWriter()
        context.writeUInt32(generation)
        return try expandWithLabel(secret: secret, label: label, context: context.bytes, length: length)
    }

    /// `RefHash(label, value)` (RFC 9420 §5.2); the label is used verbatim.
    public func refHash(label: String, value: [UInt8]) -> [UInt8] {
        var input = TLSWriter()
        input.writeOpaque(Array(label.utf8))
        input.writeOpaque(value)
        return digest(input.bytes)
    }

    private static func signContent(label: String, content: [UInt8]) -> [UInt8] {
        var writer = TLSWriter()
        writer.writeOpaque(prefixed(label))
        writer.writeOpaque(content)
        return writer.bytes
    }

    /// `SignWithLabel(signatureKey, label, content)`.
    public func signWithLabel(privateKey: [UInt8], label: String, content: [UInt8]) throws -> [UInt8] {
        try signature.sign(privateKey: privateKey, message: Self.signContent(label: label, content: content))
    }

    /// `VerifyWithLabel(verificationKey, label, content, signature)`.
    public func verifyWithLabel(publicKey: [UInt8], label: String, content: [UInt8], signature sig: [UInt8]) -> Bool {
        signature.verify(publicKey: publicKey, message: Self.signContent(label: label, content: content), signature: sig)
    }

    /// Like ``verifyWithLabel(publicKey:label:content:signature:)`` but throws ``MLSCryptoError/invalidSignature(label:)``.
    public func requireValidSignature(publicKey: [UInt8], label: String, content: [UInt8], signature sig: [UInt8]) throws {
        guard verifyWithLabel(publicKey: publicKey, label: label, content: content, signature: sig) else {
            throw MLSCryptoError.invalidSignature(label: label)
        }
    }

    /// `EncryptWithLabel` and `DecryptWithLabel` prepared for `label` and `context`, for encrypting to many recipients.
    public func labeledEncryption(label: String, context: [UInt8]) -> LabeledEncryption {
        LabeledEncryption(suite: self, label: label, context: context)
    }

    /// `EncryptWithLabel(publicKey, label, context, plaintext)` (RFC 9420 §5.1.3): HPKE SealBase with an `EncryptContext` info.
    public func encryptWithLabel(publicKey: [UInt8], label: String, context: [UInt8], plaintext: [UInt8]) throws -> HPKECiphertext {
        try labeledEncryption(label: label, context: context).encrypt(to: publicKey, plaintext: plaintext)
    }

    /// `DecryptWithLabel(privateKey, label, context, kem_output, ciphertext)`.
    public func decryptWithLabel(privateKey: [UInt8], label: String, context: [UInt8], ciphertext: HPKECiphertext) throws -> [UInt8] {
        try labeledEncryption(label: label, context: context).decrypt(privateKey: privateKey, ciphertext: ciphertext)
    }

    /// `DeriveKeyPair(secret)` for the suite's KEM.
    public func deriveKeyPair(secret: [UInt8]) throws -> KeyPair { try kem.deriveKeyPair(ikm: secret) }
}
