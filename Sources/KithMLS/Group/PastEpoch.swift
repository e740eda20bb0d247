/// What a member keeps of an earlier epoch to decrypt late application messages (RFC 9420 §15, §16.10 deletion caveats).
struct PastEpoch: Sendable {
    /// The GroupContext of that epoch (signatures cover it).
    var context: GroupContext
    /// The ratchet tree of that epoch (sender signature keys).
    var tree: RatchetTree
    /// The remaining message keys of that epoch.
    var secretTree: SecretTree
    /// The sender-data secret of that epoch.
    var senderDataSecret: [UInt8]
}
