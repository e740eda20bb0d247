import Crypto
import KithIdentity

/// A contact's long-term public keys relevant to direct messages, validated once.
public struct PeerIdentity: Sendable, Equatable {
    /// The Ed25519 identity public key (32 bytes).
    public let identityKey: [UInt8]
    /// The identity key converted to X25519.
    public let identityDHKey: [UInt8]
    /// The ML-KEM-768 pq_key (1184 bytes).
    public let pqKey: [UInt8]
    /// The contact's feed id (the key of its sessions and prekeys).
    public let feed: FeedID
    /// The contact's feed id as text.
    public var feedID: String { feed.string }

    /// Validates the keys: the identity key must convert to X25519 (canonical, prime order) and
    /// the pq key must be a valid ML-KEM-768 encapsulation key.
    ///
    /// - Parameter feedID: the contact's feed_id; defaults to the hash of `identityKey`. Pass it
    ///   for a contact whose keys rotated (the feed_id stays the hash of the original key).
    public init(identityKey: [UInt8], pqKey: [UInt8], feedID: String? = nil) throws(RatchetError) {
        self.identityDHKey = try EdwardsToMontgomery.publicKey(fromEd25519: identityKey)
        guard pqKey.count == RatchetConstants.mlkemPublicKeySize else {
            throw .invalidKeyLength(expected: RatchetConstants.mlkemPublicKeySize, actual: pqKey.count)
        }
        guard (try? MLKEM768.PublicKey(rawRepresentation: pqKey)) != nil else { throw .invalidPQKey }
        self.identityKey = identityKey
        self.pqKey = pqKey
        if let feedID {
            self.feed = try FeedID.parsed(feedID)
        } else {
            self.feed = FeedID(ed25519PublicKey: identityKey)
        }
    }


    /// The ML-KEM public key object.
    func pqPublicKey() throws(RatchetError) -> MLKEM768.PublicKey {
        do { return try MLKEM768.PublicKey(rawRepresentation: pqKey) } catch { throw .invalidPQKey }
    }
}
