/// Protocol constants and bounds of the MLS module (RFC 9420).
public enum MLSLimits {
    /// Largest length a variable-length vector header can express (RFC 9420 §2.1.2: 2^30 - 1).
    public static let maxVarIntValue: UInt32 = (1 << 30) - 1
    /// Largest number of leaves a ratchet tree may have (keeps node indices inside `UInt32`).
    public static let maxLeafCount: UInt32 = 1 << 30
    /// Largest number of future generations a receiver ratchets forward for one message.
    public static let maxForwardRatchet: UInt32 = 1024
    /// Default number of past epochs whose message keys a member keeps for late application messages (3, like XMTP).
    public static let defaultRetainedEpochs = 3
    /// Size of the reuse guard that is XORed into the first bytes of a content nonce (RFC 9420 §6.3.1).
    public static let reuseGuardLength = 4
    /// Largest number of Adds in one commit that are checked against the members by direct scans; more use a ``MembershipIndex``.
    static let directMembershipCheckLimit = 4
    /// Largest number of past epochs a serialized ``GroupState`` may carry (``GroupState/serializedState()`` refuses more).
    public static let maxStoredPastEpochs = 64
    /// Largest number of pending proposals, and of pending Update key pairs, a serialized ``GroupState`` may carry.
    public static let maxStoredPendingProposals = 4096
    /// Largest number of PSKs (external and resumption together) a serialized ``GroupState`` may carry.
    public static let maxStoredPSKs = 4096
    /// Largest length of a private or public key, PSK id or PSK secret in a serialized ``GroupState``.
    public static let maxStoredKeyLength = 1024
    /// Label prefix added by ExpandWithLabel, SignWithLabel and EncryptWithLabel.
    public static let labelPrefix = "MLS 1.0 "
}
