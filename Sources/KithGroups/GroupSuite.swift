import KithMLS

/// The MLS parameters every Kith group uses.
public enum GroupSuite {
    /// `MLS_128_DHKEMX25519_CHACHA20POLY1305_SHA256_Ed25519` (0x0003), the suite XMTP and Convos use; ChaCha20-Poly1305
    /// like the rest of Kith (spec 4).
    public static let cipherSuiteID: UInt16 = 0x0003

    /// The cipher suite.
    public static func cipherSuite() throws(GroupError) -> CipherSuite {
        do { return try CipherSuite(rawValue: cipherSuiteID) } catch { throw .mls("\(error)") }
    }

    /// Past epochs whose message keys stay, so messages sent just before a commit still open after it.
    public static let retainedEpochs = 5

    /// GroupContext extension types a Kith member supports and lists in its capabilities (RFC 9420 §7.2): the Kith
    /// policy, the members' identity keys and XMTP's mutable metadata (which carries the Convos conversation metadata).
    public static let supportedExtensions: [ExtensionType] = [GroupPolicy.extensionType, GroupIdentityKey.extensionType, .xmtpGroupMutableMetadata]

    /// The capabilities of every Kith leaf.
    public static var capabilities: Capabilities {
        Capabilities(
            versions: [.mls10], cipherSuites: [CipherSuiteID(rawValue: cipherSuiteID)], extensions: supportedExtensions, proposals: [],
            credentials: [.basic]
        )
    }

    /// A configuration for member states, checking lifetimes against `now` (Unix seconds).
    public static func configuration(now: @escaping @Sendable () -> UInt64) -> GroupConfiguration {
        GroupConfiguration(clock: { now() }, pastEpochsForApplicationMessages: retainedEpochs)
    }
}
