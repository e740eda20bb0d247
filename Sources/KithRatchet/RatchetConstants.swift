/// Every label, size and bound of Kith's direct-message protocol (hybrid X3DH + Double Ratchet).
///
/// docs/FEED-FORMAT.md section 12 is the byte-exact specification of these values.
public enum RatchetConstants {
    // MARK: Sizes

    /// Size of an X25519 public or private key and of a DH output.
    public static let x25519KeySize = 32
    /// Size of an Ed25519 public key or seed.
    public static let ed25519KeySize = 32
    /// Size of an ML-KEM-768 public (encapsulation) key.
    public static let mlkemPublicKeySize = 1184
    /// Size of an ML-KEM-768 ciphertext.
    public static let mlkemCiphertextSize = 1088
    /// Size of an ML-KEM-768 private-key seed (`d || z`).
    public static let mlkemSeedSize = 64
    /// Size of root keys, chain keys and message keys.
    public static let symmetricKeySize = 32
    /// Size of the ChaCha20-Poly1305 nonce.
    public static let nonceSize = 12
    /// Size of the Poly1305 tag.
    public static let tagSize = 16
    /// Length of a feed_id: base64url-no-pad of a 32-byte SHA-256 digest.
    public static let feedIDLength = 43

    // MARK: Labels

    /// HKDF salt of the hybrid X3DH (feed format spec section 4.1).
    public static let x3dhSalt: [UInt8] = Array("ProximityApp_X3DH_v1".utf8)
    /// The 32 x 0xFF "discontinuity" prefix of the X3DH input key material (kept from Signal).
    public static let x3dhPrefix = [UInt8](repeating: 0xFF, count: 32)
    /// HKDF info of the root-key step `KDF_RK`.
    public static let rootKDFInfo: [UInt8] = Array("Kith_DR_RK_v1".utf8)
    /// HMAC input of `KDF_CK` producing the message key.
    public static let messageKeySeed: UInt8 = 0x01
    /// HMAC input of `KDF_CK` producing the next chain key.
    public static let chainKeySeed: UInt8 = 0x02
    /// Domain label of the signed-prekey signature.
    public static let signedPrekeyLabel: [UInt8] = Array("Kith_SPK_v1".utf8)

    // MARK: Limits

    /// Largest number of message keys one receiving chain may skip in one step (Signal's MAX_SKIP).
    public static let maxSkipPerChain: UInt32 = 1000
    /// Largest number of skipped message keys a session stores; the oldest is evicted first.
    public static let maxStoredSkippedKeys = 2000
    /// How many former receiving ratchet keys a session remembers to reject replays cheaply.
    public static let maxRetiredReceivingKeys = 5
    /// Default age after which a stored skipped message key is deleted (30 days, in seconds).
    public static let defaultSkippedKeyLifetime: UInt64 = 30 * 24 * 3600
    /// Default number of one-time prekeys generated per contact.
    public static let defaultOneTimePrekeyBatch = 100
    /// Largest one-time prekey pool per contact (and largest encoded batch).
    public static let maxOneTimePrekeys = 8192
    /// A pool below this percentage of its issued batch triggers a low-water warning.
    public static let lowWaterPercent = 10
    /// Largest accepted audience string in the associated data, in bytes.
    public static let maxAudienceLength = 255
    /// Largest accepted plaintext of one direct message (1 MiB).
    public static let maxPlaintextSize = 1 << 20
}
