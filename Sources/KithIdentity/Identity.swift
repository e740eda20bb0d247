import Crypto
import Foundation

/// A user's identity: the keys derived from one ``Seed`` (spec 2.1, 2.2), and after a key
/// rotation (spec 5.5) the announced keys derived from a fresh key seed.
///
/// Holds private keys in memory only; persist the seeds with a ``KeyVault`` and re-derive with
/// ``init(seed:keySeed:previousKeySeed:)``.
///
/// The device seed always derives the journal and storage keys and the **original** identity key,
/// whose SHA-256 is the feed id forever. The announced keys (identity, dh, pq) come from the
/// device seed until the first rotation, then from the current key seed (same HKDF labels).
/// One previous generation's dh key is used for contacts posts written before a contact saw the
/// rotation; up to ``RotatedKeySeeds/maxRetiredGenerations`` retired generations open direct messages.
public struct Identity: Sendable {
    /// Ed25519 key that signs every envelope (the current generation).
    public let signingKey: Curve25519.Signing.PrivateKey
    /// X25519 long-term key (the X3DH signed prekey and the contacts-key agreement).
    public let dhKey: Curve25519.KeyAgreement.PrivateKey
    /// ML-KEM-768 key for hybrid key establishment.
    public let pqKey: MLKEM768.PrivateKey
    /// Symmetric key for the `self` audience.
    public let journalKey: SymmetricKey
    /// Symmetric key that seals decrypted content and session state at rest.
    public let storageKey: SymmetricKey
    /// The public keys of the current generation.
    public let publicKeys: PublicKeys
    /// The identity key the feed started with: its SHA-256 is the feed id.
    public let originalIdentityKey: Curve25519.Signing.PublicKey
    /// The keys of the previous generation, after a rotation (to read what contacts wrote before
    /// they saw the rotation).
    public let previousGeneration: KeyGeneration?

    /// The generations before ``previousGeneration`` that are still kept, newest first (at most
    /// ``RotatedKeySeeds/maxRetiredGenerations`` - 1): direct messages written by a contact who
    /// has not seen several rotations still target them.
    public let olderGenerations: [KeyGeneration]

    /// Every retired generation still kept, newest first: ``previousGeneration``, then ``olderGenerations``.
    public var retiredGenerations: [KeyGeneration] { (previousGeneration.map { [$0] } ?? []) + olderGenerations }

    /// The dh key of the previous generation, after a rotation.
    public var previousDHKey: Curve25519.KeyAgreement.PrivateKey? { previousGeneration?.dhKey }

    /// The feed id (base64url of SHA-256 of the original identity public key), computed once: it is read on every
    /// comparison with another feed.
    public let feedID: FeedID

    /// True once the keys rotated away from the device seed's.
    public var isRotated: Bool { publicKeys.identityKey.rawRepresentation != originalIdentityKey.rawRepresentation }

    /// Derives every key from a seed, deterministically (no rotation).
    public init(seed: Seed) throws(IdentityError) {
        try self.init(seed: seed, keySeed: nil, previousKeySeed: nil)
    }

    /// Derives an identity whose announced keys may have rotated.
    ///
    /// - Parameters:
    ///   - seed: the device seed (journal and storage keys, original identity key).
    ///   - keySeed: the seed of the current announced keys, nil before the first rotation.
    ///   - previousKeySeed: the seed of the previous generation, nil when it was the device seed.
    ///   - olderKeySeeds: the generations before the previous one, newest first (nil: the device
    ///     seed's generation); ignored before the first rotation.
    public init(seed: Seed, keySeed: Seed?, previousKeySeed: Seed?, olderKeySeeds: [Seed?] = []) throws(IdentityError) {
        let original = try KeyGeneration(seed: seed)
        let current = try keySeed.map { seed throws(IdentityError) in try KeyGeneration(seed: seed) } ?? original
        signingKey = current.signingKey
        dhKey = current.dhKey
        pqKey = current.pqKey
        originalIdentityKey = original.signingKey.publicKey
        feedID = FeedID(identityKey: original.signingKey.publicKey)
        if keySeed != nil {
            previousGeneration = try previousKeySeed.map { seed throws(IdentityError) in try KeyGeneration(seed: seed) } ?? original
            var older: [KeyGeneration] = []
            for olderSeed in olderKeySeeds.prefix(RotatedKeySeeds.maxRetiredGenerations - 1) {
                older.append(try olderSeed.map { seed throws(IdentityError) in try KeyGeneration(seed: seed) } ?? original)
            }
            olderGenerations = older
        } else {
            previousGeneration = nil
            olderGenerations = []
        }
        journalKey = KeyDerivation.derive(KeyDerivation.journalKey, from: seed)
        storageKey = KeyDerivation.derive(KeyDerivation.storageKey, from: seed)
        publicKeys = PublicKeys(identityKey: signingKey.publicKey, dhKey: dhKey.publicKey, pqKey: pqKey.publicKey)
    }

    /// Derives an identity from the device seed and the rotated key seeds (nil: never rotated).
    public init(seed: Seed, keySeeds: RotatedKeySeeds?) throws(IdentityError) {
        try self.init(seed: seed, keySeed: keySeeds?.current, previousKeySeed: keySeeds?.previous, olderKeySeeds: keySeeds?.older ?? [])
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

/// The three announced private keys derived from one seed (HKDF labels of spec 2.2).
public struct KeyGeneration: Sendable {
    /// Ed25519 signing key.
    public let signingKey: Curve25519.Signing.PrivateKey
    /// X25519 key.
    public let dhKey: Curve25519.KeyAgreement.PrivateKey
    /// ML-KEM-768 key.
    public let pqKey: MLKEM768.PrivateKey

    /// Derives the keys from a seed.
    public init(seed: Seed) throws(IdentityError) {
        do {
            signingKey = try Curve25519.Signing.PrivateKey(rawRepresentation: KeyDerivation.derive(KeyDerivation.identityKey, from: seed))
            dhKey = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: KeyDerivation.derive(KeyDerivation.dhKey, from: seed))
            let pqSeed = KeyDerivation.derive(KeyDerivation.pqKey, from: seed)
            pqKey = try pqSeed.withUnsafeBytes { try MLKEM768.PrivateKey(seedRepresentation: Data($0), publicKey: nil) }
        } catch {
            throw .keyDerivationFailed("\(error)")
        }
    }
}
