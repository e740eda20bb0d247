import Crypto

/// Decides whether a peer, identified by its 32-byte Noise static public key, is an allowed contact.
public typealias PeerAllowList = @Sendable (_ peerStaticKey: [UInt8]) async -> Bool

/// What one side brings to a ``SecureLink`` handshake.
public struct SecureLinkConfiguration: Sendable {
    /// This device's long-term X25519 key (the Noise static key).
    public var localStatic: Curve25519.KeyAgreement.PrivateKey
    /// This side's version and capabilities, sent encrypted inside the handshake.
    public var hello: SyncHello
    /// Called with the peer's static key as soon as it is known; `false` closes the link before
    /// anything but handshake bytes was sent.
    public var isAllowed: PeerAllowList
    /// Pad every sealed frame to full size so frame lengths reveal nothing about record sizes.
    public var padsFramesToFullSize: Bool
    /// Patterns a responder answers. An XX responder reveals its static key (a stable identifier) to
    /// any active initiator before learning who it is; a responder answering only IK stays silent
    /// to everyone but contacts who already know its key.
    public var acceptedPatterns: Set<SecureLinkPattern>
    /// A second static key an IK responder also answers to: tried only when IK message 1 does not
    /// decrypt with ``localStatic`` (after a key rotation, the other generation's key, so initiators
    /// that address either key reach this device). Never sent, never used by XX or an initiator.
    public var alternateStatic: Curve25519.KeyAgreement.PrivateKey?

    /// Creates a configuration.
    public init(
        localStatic: Curve25519.KeyAgreement.PrivateKey,
        hello: SyncHello = SyncHello(),
        padsFramesToFullSize: Bool = false,
        acceptedPatterns: Set<SecureLinkPattern> = [.xx, .ik],
        alternateStatic: Curve25519.KeyAgreement.PrivateKey? = nil,
        isAllowed: @escaping PeerAllowList
    ) {
        self.localStatic = localStatic
        self.alternateStatic = alternateStatic
        self.hello = hello
        self.padsFramesToFullSize = padsFramesToFullSize
        self.acceptedPatterns = acceptedPatterns
        self.isAllowed = isAllowed
    }
}
