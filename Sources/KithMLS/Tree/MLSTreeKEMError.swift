/// Errors raised while creating or processing an UpdatePath (RFC 9420 §7.4–7.6, §12.4.2).
public enum MLSTreeKEMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The UpdatePath has a different number of nodes than the sender's filtered direct path.
    case pathLengthMismatch(expected: Int, actual: Int)
    /// An UpdatePathNode has a different number of ciphertexts than the copath resolution.
    case ciphertextCountMismatch(NodeIndex)
    /// The UpdatePath leaf is not a valid commit leaf for the sender.
    case invalidLeaf(String)
    /// A derived public key differs from the one in the UpdatePath.
    case publicKeyMismatch(NodeIndex)
    /// The leaf's parent hash does not match the recomputed chain.
    case parentHashMismatch
    /// The receiver holds no private key in the relevant copath resolution.
    case noDecryptionKey
    /// The receiver is the sender or outside the tree.
    case receiverNotInCopath

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .pathLengthMismatch(let expected, let actual): "UpdatePath has \(actual) nodes, the filtered direct path has \(expected)"
        case .ciphertextCountMismatch(let node): "UpdatePath node for \(node) has the wrong number of ciphertexts"
        case .invalidLeaf(let reason): "UpdatePath leaf is invalid: \(reason)"
        case .publicKeyMismatch(let node): "public key derived for \(node) does not match the UpdatePath"
        case .parentHashMismatch: "UpdatePath leaf parent hash does not match"
        case .noDecryptionKey: "no private key for any node of the copath resolution"
        case .receiverNotInCopath: "the receiver is not on the sender's copath"
        }
    }
}
