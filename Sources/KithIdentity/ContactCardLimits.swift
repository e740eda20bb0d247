/// Every constant and bound of the contact card format (docs/FEED-FORMAT.md section 11, "Contact card").
public enum ContactCardLimits {
    /// The only card version this implementation reads and writes.
    public static let currentVersion: UInt8 = 1
    /// Largest encoded card, in bytes (a card must fit one QR code: 2,953 bytes at level L).
    public static let maxCardBytes = 2_900
    /// Longest display name, in bytes of UTF-8.
    public static let maxDisplayNameBytes = 255
    /// Longest display name, in Unicode scalars (spec 5.3).
    public static let maxDisplayNameScalars = 64
    /// Most extensions in one card.
    public static let maxExtensions = 16
    /// Largest value of one extension, in bytes.
    public static let maxExtensionValueBytes = 1_024
    /// Default maximum age of a card when it is added, in seconds (14 days).
    public static let defaultMaxAge: Int64 = 14 * 24 * 3600
    /// How far in the future a card's creation time may lie (clock skew), in seconds (1 hour).
    public static let maxFutureSkew: Int64 = 3600
    /// Ed25519 and X25519 key length.
    public static let curveKeyBytes = 32
    /// ML-KEM-768 public key length.
    public static let pqKeyBytes = 1_184
    /// Ed25519 signature length.
    public static let signatureBytes = 64
    /// Domain separation prefix of the card signature.
    public static let signatureLabel: [UInt8] = Array("Kith_ContactCard_v1".utf8)
    /// Domain separation prefix of the signed prekey signature (the same bytes KithRatchet's
    /// `SignedPrekey` signs: `"Kith_SPK_v1" || uint32_be(id) || public_key`).
    public static let signedPrekeyLabel: [UInt8] = Array("Kith_SPK_v1".utf8)
}
