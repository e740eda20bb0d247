/// One type-length-value extension of a contact card: room for later capabilities.
///
/// Wire form: `uint16_be(type) || uint16_be(length) || value`. Extensions appear in strictly
/// ascending type order (so a card has one encoding). Types this build does not know are kept
/// verbatim and covered by the card signature.
public struct ContactCardExtension: Sendable, Hashable {
    /// Extension type numbers reserved so far.
    public enum Kind {
        /// One-time prekeys: `count × (uint32_be(id) || X25519 public key(32))`.
        public static let oneTimePrekeys: UInt16 = 0x0001
        /// The holder's secp256k1 invite key, 33-byte compressed (docs/INVITES.md); the card signature binds it.
        public static let inviteKey: UInt16 = 0x0002
        /// A push endpoint: UTF-8 URL.
        public static let pushEndpoint: UInt16 = 0x0003
        /// The feed's original Ed25519 identity key (32 bytes), on the card of a rotated
        /// identity: `feed_id` is SHA-256 of this key, while `identity_key` is the current one.
        public static let originalIdentityKey: UInt16 = 0x0004
    }

    /// The type number.
    public let type: UInt16
    /// The raw value.
    public let value: [UInt8]

    /// Creates an extension.
    public init(type: UInt16, value: [UInt8]) {
        self.type = type
        self.value = value
    }

    /// True for the types this build understands.
    public var isKnown: Bool {
        [Kind.oneTimePrekeys, Kind.inviteKey, Kind.pushEndpoint, Kind.originalIdentityKey].contains(type)
    }
}
