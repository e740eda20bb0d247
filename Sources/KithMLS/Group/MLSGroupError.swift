/// Errors raised by the group state machine (RFC 9420 §11–12).
public enum MLSGroupError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The GroupInfo has neither a `ratchet_tree` extension nor an out-of-band tree.
    case missingRatchetTree
    /// The tree hash of the received tree does not match the GroupContext.
    case treeHashMismatch
    /// The GroupInfo signer is not a member.
    case unknownSigner(LeafIndex)
    /// The joiner's KeyPackage leaf is not in the tree.
    case ownLeafNotFound
    /// A PSK named by the Welcome or a proposal is unknown.
    case unknownPSK(String)
    /// The confirmation tag does not match.
    case confirmationTagMismatch
    /// The GroupContext uses a different cipher suite or version.
    case parameterMismatch(String)
    /// A message belongs to another group or epoch.
    case wrongEpoch(expected: UInt64, actual: UInt64)
    /// A proposal referenced by a commit is unknown.
    case unknownProposalReference
    /// The proposal list of a commit is invalid (RFC 9420 §12.2).
    case invalidProposalList(String)
    /// A commit needs a path but has none, or has one where forbidden.
    case pathRequired
    /// The sender of a message is not allowed to send it.
    case invalidSender(String)
    /// A KeyPackage in an Add proposal is invalid.
    case invalidKeyPackage(String)
    /// A leaf lacks a capability the group requires or uses.
    case unsupportedCapability(String)
    /// The message type is not supported yet by this implementation.
    case unsupported(String)
    /// A ReInit was committed: the group accepts no more handshake messages and sends nothing; continue in the new group.
    case groupReinitialized
    /// A ReInit proposal or the Welcome of a reinitialized group does not match what the old group agreed.
    case reinitMismatch(String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .missingRatchetTree: "no ratchet tree: the GroupInfo has no ratchet_tree extension and none was supplied"
        case .treeHashMismatch: "the ratchet tree does not match the GroupContext tree hash"
        case .unknownSigner(let leaf): "GroupInfo signer \(leaf) is not a member"
        case .ownLeafNotFound: "the joiner's KeyPackage leaf is not in the tree"
        case .unknownPSK(let id): "unknown PSK \(id)"
        case .confirmationTagMismatch: "confirmation tag does not match"
        case .parameterMismatch(let what): "parameter mismatch: \(what)"
        case .wrongEpoch(let expected, let actual): "message is for epoch \(actual), the group is at \(expected)"
        case .unknownProposalReference: "commit references an unknown proposal"
        case .invalidProposalList(let reason): "invalid proposal list: \(reason)"
        case .pathRequired: "commit path is missing where required"
        case .invalidSender(let reason): "invalid sender: \(reason)"
        case .invalidKeyPackage(let reason): "invalid KeyPackage: \(reason)"
        case .unsupportedCapability(let what): "missing capability: \(what)"
        case .unsupported(let what): "not supported yet: \(what)"
        case .groupReinitialized: "the group was reinitialized by a committed ReInit; use the new group"
        case .reinitMismatch(let what): "reinitialization mismatch: \(what)"
        }
    }
}
