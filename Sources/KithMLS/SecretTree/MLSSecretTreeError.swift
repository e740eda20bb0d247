/// Errors raised by the secret tree and its hash ratchets (RFC 9420 §9).
public enum MLSSecretTreeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The leaf lies outside the tree.
    case leafOutOfRange(LeafIndex)
    /// The key of this generation was already used or deleted.
    case generationConsumed(LeafIndex, UInt32)
    /// The requested generation is further ahead than ``MLSLimits/maxForwardRatchet``.
    case generationTooFarAhead(LeafIndex, UInt32)
    /// The ratchet's generation counter is exhausted.
    case generationExhausted(LeafIndex)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .leafOutOfRange(let leaf): "\(leaf) lies outside the secret tree"
        case .generationConsumed(let leaf, let generation): "key generation \(generation) of \(leaf) was already used or deleted"
        case .generationTooFarAhead(let leaf, let generation):
            "key generation \(generation) of \(leaf) is more than \(MLSLimits.maxForwardRatchet) steps ahead"
        case .generationExhausted(let leaf): "the ratchet of \(leaf) has no generations left"
        }
    }
}
