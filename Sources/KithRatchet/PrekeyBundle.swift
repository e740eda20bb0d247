/// What an initiator knows about the responder: long-term keys, signed prekey and optionally one
/// of the responder's one-time prekeys (taken from a batch it was handed).
public struct PrekeyBundle: Sendable, Equatable {
    /// The responder's long-term keys.
    public let peer: PeerIdentity
    /// The responder's dh_key (X3DH signed prekey), 32 bytes.
    public let signedPrekey: [UInt8]
    /// A one-time prekey of the responder, if one is available.
    public let oneTimePrekey: OneTimePrekeyPublic?

    /// Validates the keys (no small-order X25519 keys).
    public init(peer: PeerIdentity, signedPrekey: [UInt8], oneTimePrekey: OneTimePrekeyPublic?) throws(RatchetError) {
        _ = try X25519Agreement.publicKey(signedPrekey)
        if let oneTimePrekey { _ = try X25519Agreement.publicKey(oneTimePrekey.publicKey) }
        self.peer = peer
        self.signedPrekey = signedPrekey
        self.oneTimePrekey = oneTimePrekey
    }

    /// Builds a bundle from a verified ``SignedPrekey`` record.
    public init(peer: PeerIdentity, signedPrekey: SignedPrekey, oneTimePrekey: OneTimePrekeyPublic?) throws(RatchetError) {
        try signedPrekey.verify(identityKey: peer.identityKey)
        try self.init(peer: peer, signedPrekey: signedPrekey.publicKey, oneTimePrekey: oneTimePrekey)
    }
}
