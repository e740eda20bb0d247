/// Every constant and bound of Kith's Web Push code in one place (RFC 8030, RFC 8188, RFC 8291, RFC 8292).
///
/// docs/PUSH.md quotes these values; change them here and there together.
public enum PushLimits {
    /// RFC 8030 §7.2: a push service must accept push message bodies up to this many bytes, and
    /// Kith neither sends nor accepts bigger ones.
    public static let maxPushMessageBytes = 4096

    /// RFC 8188 §2: the smallest record size (one byte of content, the delimiter and the 16-byte tag).
    public static let minRecordSize: UInt32 = 18

    /// The record size Kith writes by default (the RFC 8291 example's value).
    public static let defaultRecordSize: UInt32 = 4096

    /// The length of the salt of an `aes128gcm` header (RFC 8188 §2.1).
    public static let saltLength = 16

    /// The length of a Web Push authentication secret (RFC 8291 §3.2).
    public static let authSecretLength = 16

    /// The length of an uncompressed P-256 public key (`0x04 || x || y`), the `p256dh` and `keyid` form.
    public static let publicKeyLength = 65

    /// The fixed part of an `aes128gcm` header: salt (16), rs (4), idlen (1).
    public static let fixedHeaderLength = 21

    /// The header of a Web Push message: the fixed part plus a 65-byte `keyid` (RFC 8291 §4).
    public static let webPushHeaderLength = fixedHeaderLength + publicKeyLength

    /// The AES-GCM authentication tag appended to every record.
    public static let tagLength = 16

    /// The largest plaintext that fits a 4096-byte push message without padding: 4096 − 86 − 16 − 1 = 3993.
    public static let maxPlaintextBytes = maxPushMessageBytes - webPushHeaderLength - tagLength - 1

    /// RFC 8292 §2: a VAPID token's `exp` may lie at most this many seconds (24 hours) ahead.
    public static let maxVAPIDLifetimeSeconds: Int64 = 86_400

    /// The clock difference tolerated by default when checking a VAPID token's `exp`.
    public static let defaultVAPIDClockSkewSeconds: Int64 = 60

    /// The longest `Authorization: vapid …` header value Kith parses.
    public static let maxVAPIDHeaderBytes = 2048

    /// The longest VAPID `aud` or `sub` claim accepted, in UTF-8 bytes.
    public static let maxVAPIDClaimBytes = 512

    /// The size of a ChatSecure-Push whitelist token: 160 random bits (40 hex characters).
    public static let whitelistTokenBytes = 20
}
