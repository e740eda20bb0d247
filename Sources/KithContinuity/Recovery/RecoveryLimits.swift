/// The bounds of recovery shares, requests and releases: every decoder checks them before it allocates.
public enum RecoveryLimits {
    /// The smallest threshold: one share alone never rebuilds the secret.
    public static let minThreshold = 2
    /// The largest threshold and the most shares (guardians) in one set.
    public static let maxShares = 16
    /// The most bytes of secret a set can split (a device seed and up to four key seeds fit with room to spare).
    public static let maxSecretBytes = 256
    /// The bytes of the integrity digest split together with the secret (SHA-256).
    public static let digestBytes = 32
    /// The bytes of a set id.
    public static let setIDBytes = 16
    /// The bytes of a feed id (SHA-256 of the identity key).
    public static let feedIDBytes = 32
    /// The bytes of a recovery request's nonce.
    public static let requestNonceBytes = 16
    /// The most bytes an encoded share may have (header, length and the largest split value).
    public static let maxEncodedShareBytes = RecoveryShare.headerBytes + 2 + maxSecretBytes + digestBytes
    /// The most bytes an encoded release may have (header, encapsulated key, sealed share and its tag).
    public static let maxEncodedReleaseBytes = 1 + requestNonceBytes + 32 + 2 + maxEncodedShareBytes + 16
}
