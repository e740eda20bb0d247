import Crypto
import Foundation

/// The private halves of the one-time P-256 keys this side generated for one peer.
///
/// The peer receives ``offer`` (the public halves) and encrypts each message to a different key;
/// ``open(_:)`` finds the key by the id in the NanoTDF's KAS locator, decrypts, and forgets the key,
/// so the same message cannot be decrypted twice and a later compromise exposes nothing already read.
/// A pure value: storage (encrypted under the vault key) is the caller's concern.
public struct OneTimeKeyPool: Sendable {
    /// The pool size two contacts exchange by default.
    public static let defaultSize = 8192
    /// The largest pool this type generates.
    public static let maximumSize = 1 << 20

    private var keys: [OneTimeKeyID: P256.KeyAgreement.PrivateKey]
    /// The public halves in generation order: what is handed to the peer.
    public let offer: PeerKeyPool

    /// Generates `size` fresh P-256 key pairs.
    public init(size: Int = OneTimeKeyPool.defaultSize) throws(OneTimeKeyPoolError) {
        guard (1...Self.maximumSize).contains(size) else { throw .invalidSize(size) }
        var keys = [OneTimeKeyID: P256.KeyAgreement.PrivateKey](minimumCapacity: size)
        var publicKeys = [[UInt8]]()
        publicKeys.reserveCapacity(size)
        while keys.count < size {
            let key = P256.KeyAgreement.PrivateKey()
            let compressed = Array(key.publicKey.compressedRepresentation)
            let id = OneTimeKeyID(compressedPublicKey: compressed)
            guard keys[id] == nil else { continue }
            keys[id] = key
            publicKeys.append(compressed)
        }
        self.keys = keys
        self.offer = try PeerKeyPool(publicKeys: publicKeys)
    }

    /// How many private keys are still unused.
    public var remaining: Int { keys.count }

    /// True when the key with this id is still unused.
    public func contains(_ id: OneTimeKeyID) -> Bool { keys[id] != nil }

    /// Decrypts a one-time NanoTDF and deletes its key; a failed decryption keeps the key.
    public mutating func open(_ nano: NanoTDF) throws(OneTimeKeyPoolError) -> [UInt8] {
        guard let id = OneTimeKeyID(bytes: nano.header.kas.identifier) else { throw .missingKeyID }
        guard let key = keys[id] else { throw .unknownKey(id) }
        let plaintext: [UInt8]
        do { plaintext = try nano.decrypt(using: .p256(key)) } catch { throw .decryption(error) }
        keys[id] = nil
        return plaintext
    }

    /// The unused private keys as raw 32-byte scalars, in the order of ``offer``: for the caller to
    /// seal and store (never to log or write in the clear).
    public var exportedPrivateKeys: [(id: OneTimeKeyID, rawPrivateKey: [UInt8])] {
        offer.publicKeys.compactMap { compressed in
            let id = OneTimeKeyID(compressedPublicKey: compressed)
            return keys[id].map { (id, Array($0.rawRepresentation)) }
        }
    }

    /// Deletes every private key (trust revocation): nothing sent to this pool can be read afterwards.
    public mutating func revoke() { keys.removeAll() }
}
