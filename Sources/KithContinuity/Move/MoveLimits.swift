/// The named bounds of a device move (docs/CONTINUITY.md, section 7). Every one is checked before the bytes it
/// bounds are used.
public enum MoveLimits {
    /// The longest move code text accepted, in characters (the parser refuses longer input before decoding).
    public static let maximumCodeCharacters = 512
    /// The longest host name or address a code may carry, in bytes.
    public static let maximumHostBytes = 253
    /// The shortest join code a relay move code may carry, in bytes (the rendezvous server's rule).
    public static let minimumJoinCodeBytes = 6
    /// The longest join code a relay move code may carry, in bytes (the rendezvous server's rule).
    public static let maximumJoinCodeBytes = 64
    /// The shortest rendezvous server URL a relay move code may carry, in bytes (`http://a.b`).
    public static let minimumServerURLBytes = 10
    /// The longest rendezvous server URL a relay move code may carry, in bytes (the code stays under
    /// ``maximumCodeCharacters`` and readable as a QR code).
    public static let maximumServerURLBytes = 200
    /// The receiver's one-time secret, in bytes (256 bits).
    public static let secretSize = 32
    /// The receiver's ephemeral Noise static key, in bytes.
    public static let staticKeySize = 32
    /// The proof of the code a sender sends, in bytes (HMAC-SHA256).
    public static let proofSize = 32
    /// The most bytes a move stream may declare: 64 GiB (the backup container itself allows far more).
    public static let maximumStreamBytes: UInt64 = 64 * 1024 * 1024 * 1024
    /// The longest reason a refusal may carry, in UTF-8 bytes.
    public static let maximumReasonBytes = 200
    /// Seconds either side waits for the next message before it gives up (the receiver restores and publishes the
    /// rotation within this time; the TCP idle timeout of the link).
    public static let idleTimeoutSeconds: Double = 180
    /// Seconds the old device gives the new one to answer its handshake (a listener that accepts and stays silent).
    public static let handshakeTimeoutSeconds: Double = 60
    /// Seconds a receiver waits for a sender to connect before it gives up (by default).
    public static let defaultWaitSeconds: Double = 900
    /// Digits of the confirmation number both sides show.
    public static let confirmationDigits = 6
}
