import Crypto
import KithIdentity

/// The local user's long-term keys as the ratchet needs them (handed over by the key vault).
public struct LocalIdentityKeys: Sendable {
    /// The Ed25519 identity key.
    public let identityKey: Curve25519.Signing.PrivateKey
    /// The X25519 dh_key, which plays the X3DH "signed prekey" role.
    public let dhKey: Curve25519.KeyAgreement.PrivateKey
    /// The ML-KEM-768 pq_key.
    public let pqKey: MLKEM768.PrivateKey
    /// The identity key converted to X25519 (see ``EdwardsToMontgomery``).
    public let identityDHKey: Curve25519.KeyAgreement.PrivateKey
    /// The local feed_id.
    /// The feed id (the hash of the original identity key, unchanged by rotations).
    public let feed: FeedID
    /// The feed id's text.
    public var feedID: String { feed.string }

    /// Bundles the keys and derives the X25519 form of the identity key.
    ///
    /// - Parameter feedID: the local feed_id; defaults to the hash of the identity key. Pass it
    ///   after a key rotation (the feed_id stays the hash of the original key).
    public init(
        identityKey: Curve25519.Signing.PrivateKey,
        dhKey: Curve25519.KeyAgreement.PrivateKey,
        pqKey: MLKEM768.PrivateKey,
        feedID: String? = nil
    ) throws(RatchetError) {
        self.identityKey = identityKey
        self.dhKey = dhKey
        self.pqKey = pqKey
        self.identityDHKey = try EdwardsToMontgomery.keyAgreementKey(from: identityKey)
        if let feedID {
            self.feed = try FeedID.parsed(feedID)
        } else {
            self.feed = FeedID(ed25519PublicKey: Array(identityKey.publicKey.rawRepresentation))
        }
    }


    /// The public half other users store in their contact record.
    public var peerIdentity: PeerIdentity {
        get throws(RatchetError) {
            try PeerIdentity(
                identityKey: Array(identityKey.publicKey.rawRepresentation),
                pqKey: Array(pqKey.publicKey.rawRepresentation),
                feedID: feedID
            )
        }
    }
}
