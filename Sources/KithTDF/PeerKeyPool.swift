import Crypto
import Foundation

/// The public halves of the one-time keys a peer generated for this side, in the order received.
///
/// ``encrypt(_:kasBody:policy:)`` takes the next unused key, so two messages never share a key;
/// an exhausted pool is an error, never a reason to reuse a key.
public struct PeerKeyPool: Sendable, Equatable {
    /// The share of the pool below which the client asks to renew at the next meeting.
    public static let renewalThreshold = 0.1

    /// The compressed P-256 public keys, in order.
    public let publicKeys: [[UInt8]]
    /// The index of the next unused key.
    public private(set) var nextIndex: Int

    /// Checks an offer: every key a valid compressed P-256 point, no key or key id twice.
    public init(publicKeys: [[UInt8]]) throws(OneTimeKeyPoolError) {
        guard (1...OneTimeKeyPool.maximumSize).contains(publicKeys.count) else { throw .invalidSize(publicKeys.count) }
        var ids = Set<OneTimeKeyID>(minimumCapacity: publicKeys.count)
        for key in publicKeys {
            guard key.count == 33, (try? P256.KeyAgreement.PublicKey(compressedRepresentation: key)) != nil else {
                throw .invalidOffer(reason: "not a compressed P-256 public key")
            }
            guard ids.insert(OneTimeKeyID(compressedPublicKey: key)).inserted else {
                throw .invalidOffer(reason: "duplicate key")
            }
        }
        self.publicKeys = publicKeys
        self.nextIndex = 0
    }

    /// The pool size.
    public var capacity: Int { publicKeys.count }
    /// How many keys are left.
    public var remaining: Int { capacity - nextIndex }
    /// True when fewer than 10 % of the keys are left (819 of 8192 is low, 820 is not).
    public var needsRenewal: Bool { Double(remaining) < Double(capacity) * Self.renewalThreshold }

    /// Takes the next unused key: its id and public key. Throws ``OneTimeKeyPoolError/exhausted`` when none is left.
    public mutating func takeNext() throws(OneTimeKeyPoolError) -> (id: OneTimeKeyID, publicKey: NanoTDF.PublicKey) {
        guard nextIndex < publicKeys.count else { throw .exhausted }
        let compressed = publicKeys[nextIndex]
        guard let key = try? P256.KeyAgreement.PublicKey(compressedRepresentation: compressed) else {
            throw .invalidOffer(reason: "not a compressed P-256 public key")
        }
        nextIndex += 1
        return (OneTimeKeyID(compressedPublicKey: compressed), .p256(key))
    }

    /// Encrypts a one-time message to the next key: Kith's dialect, KAS locator = shared resource directory
    /// `kasBody` with the key id as its 8-byte identifier.
    public mutating func encrypt(
        _ plaintext: some Collection<UInt8>, kasBody: String, policy: NanoTDF.EncryptionConfiguration.PolicyInput
    ) throws(OneTimeKeyPoolError) -> NanoTDF {
        let (id, key) = try takeNext()
        do {
            let kas = try NanoTDF.ResourceLocator(scheme: .sharedResourceDirectory, body: kasBody, identifier: id.bytes)
            return try NanoTDF.encrypt(plaintext, to: key, configuration: .init(kas: kas, policy: policy))
        } catch {
            throw .encryption(error)
        }
    }
}
