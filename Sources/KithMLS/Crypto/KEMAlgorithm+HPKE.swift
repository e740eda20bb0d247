/// Single-shot base-mode HPKE (RFC 9180) on raw MLS keys; see ``HPKEBaseMode``.
extension KEMAlgorithm {
    /// `SealBase(pkR, info, aad, pt)`: returns the encapsulated key and the ciphertext.
    public func sealBase(publicKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> HPKECiphertext {
        try HPKEBaseMode(kem: self, kdf: kdf, aead: aead, info: info).seal(publicKey: publicKey, aad: aad, plaintext: plaintext)
    }

    /// `OpenBase(enc, skR, info, aad, ct)`.
    public func openBase(privateKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], aad: [UInt8], ciphertext: HPKECiphertext) throws -> [UInt8] {
        try HPKEBaseMode(kem: self, kdf: kdf, aead: aead, info: info).open(privateKey: privateKey, aad: aad, ciphertext: ciphertext)
    }

    /// SetupBaseS followed by `Export(exporterContext, length)`: returns the encapsulated key and the exported secret (RFC 9420 §8.3).
    public func exportSender(publicKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], exporterContext: [UInt8], length: Int) throws -> (kemOutput: [UInt8], secret: [UInt8]) {
        try HPKEBaseMode(kem: self, kdf: kdf, aead: aead, info: info).exportSender(publicKey: publicKey, exporterContext: exporterContext, length: length)
    }

    /// SetupBaseR followed by `Export(exporterContext, length)` (RFC 9420 §8.3).
    public func exportReceiver(privateKey: [UInt8], kemOutput: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], exporterContext: [UInt8], length: Int) throws -> [UInt8] {
        try HPKEBaseMode(kem: self, kdf: kdf, aead: aead, info: info).exportReceiver(privateKey: privateKey, kemOutput: kemOutput,
                                                                                  exporterContext: exporterContext, length: length)
    }
}
