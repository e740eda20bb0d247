import Crypto
import Foundation

/// A user's identity: the keys derived from one ``Seed`` (spec 2.1, 2.2).
///
/// Holds private keys in memory only; persist the seed with a ``KeyVault`` and
/// re-derive with ``init(seed:)``.
public struct Identity: Sendable {
    /// Ed25519 key that signs every envelope.
    public let signingKey: Curve25519.Signing.PrivateKey
    /// X25519 long-term key (the X3DH signed prekey and the contacts-key agreement).
    public let dhKey: Curve25519.KeyAgreement.PrivateKey
    /// ML-KEM-768 key for hybrid key establishment.
    public let pqKey: MLKEM768.PrivateKey
    /// Symmetric key for the `self` audience.
    public let journalKey: SymmetricKey
    /// Symmetric key that seals decrypted content and session state at rest.
    public let storageKey: SymmetricKey
    /// The public keys.
    public let publicKeys: PublicKeys

    /// The feed id (base64url of SHA-256 of the identity public key).
    public var feedID: FeedID { publicKeys.feedID }

    /// Derives every key from a seed, deterministically.
    public init(seed: Seed) throws(IdentityError) {
        do {
            let signingSeed = KeyDerivation.derive(KeyDerivation.identityKey, from: seed)
            signingKey = try Curve25519.Signing.PrivateKey(rawRepresentation: signingSeed)
            let dhScalar = KeyDerivation.derive(KeyDerivation.dhKey, from: seed)
            dhKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: dhScalar)
            let pqSeed = KeyDerivation.derive(KeyDerivation.pqKey, from: seed)
            pqKey = try pqSeed.withUnsafeBytes { try MLKEM768.PrivateKey(seedRepresentation: Data($0), publicKey: nil) }
        } catch {
            throw .keyDerivationFailed("\(error)")
        }
        journalKey = KeyDerivation.derive(KeyDerivation.journalKey, from: seed)
        storageKey = KeyDerivation.derive(KeyDerivation.storageKey, from: seed)
        publicKeys = PublicKeys(identityKey: signingKey.publicKey, dhKey: dhKey.publicKey, pqKey: pqKey.publicKey)
    }

    /// Creates a brand-new identity from a fresh CSPRNG seed; returns it with the seed to store.
    public static func generate() throws(IdentityError) -> (identity: Identity, seed: Seed) {
        let seed = Seed.generate()
        return (try Identity(seed: seed), seed)
    }

    /// Signs bytes with the identity key (Ed25519).
    public func sign<Bytes: DataProtocol>(_ bytes: Bytes) throws(IdentityError) -> [UInt8] {
        do {
            return Array(try signingKey.signature(for: bytes))
        } catch {
            throw .signingFailed("\(error)")
        }
    }
}
