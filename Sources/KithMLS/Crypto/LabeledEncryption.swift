/// `EncryptWithLabel` and `DecryptWithLabel` (RFC 9420 §5.1.3) prepared for one label and context.
///
/// The HPKE `info` (the `EncryptContext`) is hashed once, so encrypting to many recipients under one context — every copath
/// node of an UpdatePath, every joiner of a Welcome (whose context is the whole encrypted GroupInfo) — pays for it once.
public struct LabeledEncryption: Sendable {
    private let hpke: HPKEBaseMode

    /// Prepares encryption under `label` (without the `"MLS 1.0 "` prefix, which is added) and `context`.
    init(suite: CipherSuite, label: String, context: [UInt8]) {
        var writer = TLSWriter()
        writer.writeOpaque(Array((MLSLimits.labelPrefix + label).utf8))
        writer.writeOpaque(context)
        hpke = HPKEBaseMode(kem: suite.kem, kdf: suite.hash, aead: suite.aead, info: writer.bytes)
    }

    /// `EncryptWithLabel(publicKey, label, context, plaintext)`.
    public func encrypt(to publicKey: [UInt8], plaintext: [UInt8]) throws -> HPKECiphertext {
        try hpke.seal(publicKey: publicKey, aad: [], plaintext: plaintext)
    }

    /// `DecryptWithLabel(privateKey, label, context, kem_output, ciphertext)`.
    public func decrypt(privateKey: [UInt8], ciphertext: HPKECiphertext) throws -> [UInt8] {
        try hpke.open(privateKey: privateKey, aad: [], ciphertext: ciphertext)
    }
}
