import Crypto
import Foundation
import KithMLS
import KithMLSConformance
import Testing

/// The hand-built HPKE base mode interoperates with swift-crypto's HPKE in both directions, for every supported suite.
@Suite struct HPKEBaseModeTests {
    private static func reference(_ suite: CipherSuite) -> HPKE.Ciphersuite {
        let kem: HPKE.KEM
        switch suite.kem {
        case .x25519: kem = .Curve25519_HKDF_SHA256
        case .p256: kem = .P256_HKDF_SHA256
        case .p384: kem = .P384_HKDF_SHA384
        case .p521: kem = .P521_HKDF_SHA512
        }
        let kdf: HPKE.KDF
        switch suite.hash {
        case .sha256: kdf = .HKDF_SHA256
        case .sha384: kdf = .HKDF_SHA384
        case .sha512: kdf = .HKDF_SHA512
        }
        let aead: HPKE.AEAD
        switch suite.aead {
        case .aes128GCM: aead = .AES_GCM_128
        case .aes256GCM: aead = .AES_GCM_256
        case .chaCha20Poly1305: aead = .chaChaPoly
        }
        return HPKE.Ciphersuite(kem: kem, kdf: kdf, aead: aead)
    }

    /// swift-crypto's recipient for a raw MLS private key.
    private static func recipient(_ suite: CipherSuite, privateKey: [UInt8], enc: [UInt8], info: [UInt8]) throws -> HPKE.Recipient {
        let ciphersuite = reference(suite)
        switch suite.kem {
        case .x25519:
            return try HPKE.Recipient(privateKey: Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey), ciphersuite: ciphersuite,
                                      info: Data(info), encapsulatedKey: Data(enc))
        case .p256:
            return try HPKE.Recipient(privateKey: P256.KeyAgreement.PrivateKey(rawRepresentation: privateKey), ciphersuite: ciphersuite,
                                      info: Data(info), encapsulatedKey: Data(enc))
        case .p384:
            return try HPKE.Recipient(privateKey: P384.KeyAgreement.PrivateKey(rawRepresentation: privateKey), ciphersuite: ciphersuite,
                                      info: Data(info), encapsulatedKey: Data(enc))
        case .p521:
            return try HPKE.Recipient(privateKey: P521.KeyAgreement.PrivateKey(rawRepresentation: privateKey), ciphersuite: ciphersuite,
                                      info: Data(info), encapsulatedKey: Data(enc))
        }
    }

    /// swift-crypto's sender for a raw MLS public key.
    private static func sender(_ suite: CipherSuite, publicKey: [UInt8], info: [UInt8]) throws -> HPKE.Sender {
        let ciphersuite = reference(suite)
        switch suite.kem {
        case .x25519:
            return try HPKE.Sender(recipientKey: Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey), ciphersuite: ciphersuite, info: Data(info))
        case .p256:
            return try HPKE.Sender(recipientKey: P256.KeyAgreement.PublicKey(x963Representation: publicKey), ciphersuite: ciphersuite, info: Data(info))
        case .p384:
            return try HPKE.Sender(recipientKey: P384.KeyAgreement.PublicKey(x963Representation: publicKey), ciphersuite: ciphersuite, info: Data(info))
        case .p521:
            return try HPKE.Sender(recipientKey: P521.KeyAgreement.PublicKey(x963Representation: publicKey), ciphersuite: ciphersuite, info: Data(info))
        }
    }

    private static let info = Array("info of some length".utf8)
    private static let aad = Array("aad".utf8)
    private static let plaintext = Array("path secret bytes".utf8)

    @Test(arguments: CipherSuiteID.supported)
    func sealedByKithOpensWithSwiftCrypto(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let keys = suite.kem.generateKeyPair()
        let sealed = try suite.kem.sealBase(publicKey: keys.publicKey, kdf: suite.hash, aead: suite.aead, info: Self.info, aad: Self.aad,
                                            plaintext: Self.plaintext)
        var recipient = try Self.recipient(suite, privateKey: keys.privateKey, enc: sealed.kemOutput, info: Self.info)
        #expect(Array(try recipient.open(sealed.ciphertext, authenticating: Self.aad)) == Self.plaintext)
    }

    @Test(arguments: CipherSuiteID.supported)
    func sealedBySwiftCryptoOpensWithKith(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let keys = suite.kem.generateKeyPair()
        var sender = try Self.sender(suite, publicKey: keys.publicKey, info: Self.info)
        let ciphertext = try sender.seal(Self.plaintext, authenticating: Self.aad)
        let sealed = HPKECiphertext(kemOutput: Array(sender.encapsulatedKey), ciphertext: Array(ciphertext))
        #expect(try suite.kem.openBase(privateKey: keys.privateKey, kdf: suite.hash, aead: suite.aead, info: Self.info, aad: Self.aad,
                                       ciphertext: sealed) == Self.plaintext)
        #expect(throws: MLSCryptoError.self) {
            try suite.kem.openBase(privateKey: keys.privateKey, kdf: suite.hash, aead: suite.aead, info: Self.info + [0], aad: Self.aad,
                                   ciphertext: sealed)
        }
    }

    @Test(arguments: CipherSuiteID.supported)
    func exportedSecretsMatchSwiftCrypto(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let keys = suite.kem.generateKeyPair()
        let context = Array("MLS 1.0 external init secret".utf8)
        let exported = try suite.kem.exportSender(publicKey: keys.publicKey, kdf: suite.hash, aead: suite.aead, info: [], exporterContext: context,
                                                  length: suite.secretSize)
        let recipient = try Self.recipient(suite, privateKey: keys.privateKey, enc: exported.kemOutput, info: [])
        let reference = try recipient.exportSecret(context: context, outputByteCount: suite.secretSize)
        #expect(reference.withUnsafeBytes { Array($0) } == exported.secret)
        #expect(try suite.kem.exportReceiver(privateKey: keys.privateKey, kemOutput: exported.kemOutput, kdf: suite.hash, aead: suite.aead,
                                             info: [], exporterContext: context, length: suite.secretSize) == exported.secret)
    }

    @Test func oneLabeledEncryptionServesManyRecipients() throws {
        let suite = try CipherSuite(rawValue: 1)
        let recipients = (0..<4).map { _ in suite.kem.generateKeyPair() }
        let encryption = suite.labeledEncryption(label: "UpdatePathNode", context: [1, 2, 3])
        for keys in recipients {
            let sealed = try encryption.encrypt(to: keys.publicKey, plaintext: Self.plaintext)
            #expect(try suite.decryptWithLabel(privateKey: keys.privateKey, label: "UpdatePathNode", context: [1, 2, 3], ciphertext: sealed) == Self.plaintext)
            #expect(throws: MLSCryptoError.self) {
                try suite.decryptWithLabel(privateKey: keys.privateKey, label: "UpdatePathNode", context: [1, 2], ciphertext: sealed)
            }
        }
    }
}
