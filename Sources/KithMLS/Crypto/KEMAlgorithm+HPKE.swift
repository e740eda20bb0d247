import Crypto
import Foundation

/// Base-mode HPKE (RFC 9180) on raw MLS keys, with the all-zero X25519 check swift-crypto omits.
extension KEMAlgorithm {
    /// `SealBase(pkR, info, aad, pt)`: returns the encapsulated key and the ciphertext.
    public func sealBase(publicKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], aad: [UInt8], plaintext: [UInt8]) throws -> HPKECiphertext {
        let suite = HPKE.Ciphersuite(kem: hpke, kdf: kdf.hpkeKDF, aead: aead.hpke)
        switch self {
        case .x25519:
            let key = try parseX25519(publicKey)
            try Self.rejectSmallOrder(key)
            return try Self.seal(key, suite, info, aad, plaintext)
        case .p256:
            return try Self.seal(parse { try P256.KeyAgreement.PublicKey(x963Representation: publicKey) }, suite, info, aad, plaintext)
        case .p384:
            return try Self.seal(parse { try P384.KeyAgreement.PublicKey(x963Representation: publicKey) }, suite, info, aad, plaintext)
        case .p521:
            return try Self.seal(parse { try P521.KeyAgreement.PublicKey(x963Representation: publicKey) }, suite, info, aad, plaintext)
        }
    }

    /// `OpenBase(enc, skR, info, aad, ct)`.
    public func openBase(privateKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], aad: [UInt8], ciphertext: HPKECiphertext) throws -> [UInt8] {
        let suite = HPKE.Ciphersuite(kem: hpke, kdf: kdf.hpkeKDF, aead: aead.hpke)
        switch self {
        case .x25519:
            let key = try privateKeyOf { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) }
            let peer = try parseX25519(ciphertext.kemOutput)
            let shared = try key.sharedSecretFromKeyAgreement(with: peer)
            guard shared.withUnsafeBytes({ $0.contains { $0 != 0 } }) else { throw MLSCryptoError.allZeroSharedSecret }
            return try Self.open(key, suite, info, aad, ciphertext)
        case .p256:
            return try Self.open(privateKeyOf { try P256.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 32)) }, suite, info, aad, ciphertext)
        case .p384:
            return try Self.open(privateKeyOf { try P384.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 48)) }, suite, info, aad, ciphertext)
        case .p521:
            return try Self.open(privateKeyOf { try P521.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 66)) }, suite, info, aad, ciphertext)
        }
    }

    /// SetupBaseS followed by `Export(exporterContext, length)`: returns the encapsulated key and the exported secret (RFC 9420 §8.3).
    public func exportSender(publicKey: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], exporterContext: [UInt8], length: Int) throws -> (kemOutput: [UInt8], secret: [UInt8]) {
        let suite = HPKE.Ciphersuite(kem: hpke, kdf: kdf.hpkeKDF, aead: aead.hpke)
        func run<PK: HPKEDiffieHellmanPublicKey>(_ key: PK) throws -> ([UInt8], [UInt8]) {
            let sender = try HPKE.Sender(recipientKey: key, ciphersuite: suite, info: Data(info))
            let secret = try sender.exportSecret(context: exporterContext, outputByteCount: length)
            return (Array(sender.encapsulatedKey), secret.withUnsafeBytes { Array($0) })
        }
        do {
            switch self {
            case .x25519:
                let key = try parseX25519(publicKey)
                try Self.rejectSmallOrder(key)
                return try run(key)
            case .p256: return try run(parse { try P256.KeyAgreement.PublicKey(x963Representation: publicKey) })
            case .p384: return try run(parse { try P384.KeyAgreement.PublicKey(x963Representation: publicKey) })
            case .p521: return try run(parse { try P521.KeyAgreement.PublicKey(x963Representation: publicKey) })
            }
        } catch let error as MLSCryptoError {
            throw error
        } catch {
            throw MLSCryptoError.encryptionFailed("HPKE export: \(error)")
        }
    }

    /// SetupBaseR followed by `Export(exporterContext, length)` (RFC 9420 §8.3).
    public func exportReceiver(privateKey: [UInt8], kemOutput: [UInt8], kdf: HashAlgorithm, aead: AEADAlgorithm, info: [UInt8], exporterContext: [UInt8], length: Int) throws -> [UInt8] {
        let suite = HPKE.Ciphersuite(kem: hpke, kdf: kdf.hpkeKDF, aead: aead.hpke)
        func run<SK: HPKEDiffieHellmanPrivateKey>(_ key: SK) throws -> [UInt8] {
            let recipient = try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: Data(info), encapsulatedKey: Data(kemOutput))
            return try recipient.exportSecret(context: exporterContext, outputByteCount: length).withUnsafeBytes { Array($0) }
        }
        do {
            switch self {
            case .x25519:
                let key = try privateKeyOf { try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKey) }
                let shared = try key.sharedSecretFromKeyAgreement(with: try parseX25519(kemOutput))
                guard shared.withUnsafeBytes({ $0.contains { $0 != 0 } }) else { throw MLSCryptoError.allZeroSharedSecret }
                return try run(key)
            case .p256: return try run(privateKeyOf { try P256.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 32)) })
            case .p384: return try run(privateKeyOf { try P384.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 48)) })
            case .p521: return try run(privateKeyOf { try P521.KeyAgreement.PrivateKey(rawRepresentation: SignatureAlgorithm.leftPadded(privateKey, to: 66)) })
            }
        } catch let error as MLSCryptoError {
            throw error
        } catch {
            throw MLSCryptoError.decryptionFailed("HPKE export: \(error)")
        }
    }

    // MARK: Helpers

    private func parseX25519(_ bytes: [UInt8]) throws -> Curve25519.KeyAgreement.PublicKey {
        guard bytes.count == 32 else { throw MLSCryptoError.invalidPublicKey("X25519 public key must be 32 bytes") }
        return try parse { try Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes) }
    }

    private func parse<K>(_ body: () throws -> K) throws -> K {
        do { return try body() } catch { throw MLSCryptoError.invalidPublicKey("\(self) public key rejected") }
    }

    private func privateKeyOf<K>(_ body: () throws -> K) throws -> K {
        do { return try body() } catch { throw MLSCryptoError.invalidPrivateKey("\(self) private key rejected") }
    }

    /// A fixed probe scalar: any clamped scalar is a multiple of 8, so it maps every small-order point to zero.
    private static let smallOrderProbe = Curve25519.KeyAgreement.PrivateKey()

    /// A small-order X25519 key yields an all-zero shared secret with every clamped scalar (one DH with a fixed probe).
    private static func rejectSmallOrder(_ key: Curve25519.KeyAgreement.PublicKey) throws {
        let shared = try smallOrderProbe.sharedSecretFromKeyAgreement(with: key)
        guard shared.withUnsafeBytes({ $0.contains { $0 != 0 } }) else { throw MLSCryptoError.allZeroSharedSecret }
    }

    private static func seal<PK: HPKEDiffieHellmanPublicKey>(_ key: PK, _ suite: HPKE.Ciphersuite, _ info: [UInt8], _ aad: [UInt8], _ plaintext: [UInt8]) throws -> HPKECiphertext {
        do {
            var sender = try HPKE.Sender(recipientKey: key, ciphersuite: suite, info: Data(info))
            let ciphertext = try sender.seal(plaintext, authenticating: aad)
            return HPKECiphertext(kemOutput: Array(sender.encapsulatedKey), ciphertext: Array(ciphertext))
        } catch {
            throw MLSCryptoError.encryptionFailed("HPKE seal: \(error)")
        }
    }

    private static func open<SK: HPKEDiffieHellmanPrivateKey>(_ key: SK, _ suite: HPKE.Ciphersuite, _ info: [UInt8], _ aad: [UInt8], _ ciphertext: HPKECiphertext) throws -> [UInt8] {
        do {
            var recipient = try HPKE.Recipient(privateKey: key, ciphersuite: suite, info: Data(info), encapsulatedKey: Data(ciphertext.kemOutput))
            return Array(try recipient.open(ciphertext.ciphertext, authenticating: aad))
        } catch {
            throw MLSCryptoError.decryptionFailed("HPKE open failed")
        }
    }
}

extension HashAlgorithm {
    /// The matching HPKE KDF identifier.
    var hpkeKDF: HPKE.KDF {
        switch self {
        case .sha256: .HKDF_SHA256
        case .sha384: .HKDF_SHA384
        case .sha512: .HKDF_SHA512
        }
    }
}
