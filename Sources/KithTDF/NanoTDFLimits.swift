/// The constants and bounds of the NanoTDF format as Kith reads and writes it.
public enum NanoTDFLimits {
    /// Size of the magic-and-version field.
    public static let magicVersionSize = 3
    /// Size of the payload IV.
    public static let ivSize = 3
    /// Size of the payload length field (a big-endian uint24 counting IV, ciphertext and tag).
    public static let payloadLengthSize = 3
    /// The largest value the payload length field can hold.
    public static let maximumPayloadLength = (1 << 24) - 1
    /// Size of the "GMAC" policy binding (the last 8 bytes of SHA-256 of the policy content).
    public static let gmacBindingSize = 8
    /// The largest embedded policy content (the 2-byte content length).
    public static let maximumPolicyContentLength = Int(UInt16.max)
    /// The largest resource locator body (the 1-byte body length).
    public static let maximumLocatorBodyLength = Int(UInt8.max)
    /// The AES-GCM nonce size NanoTDF expands its 3-byte IV to (`00×9 ‖ IV`).
    public static let gcmNonceSize = 12
    /// The largest plaintext that fits a payload with the given tag size.
    public static func maximumPlaintextLength(tagSize: Int) -> Int { maximumPayloadLength - ivSize - tagSize }
}
