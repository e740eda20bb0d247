/// Which of a leaf's two hash ratchets a key comes from (RFC 9420 §9.1).
public enum RatchetKind: Sendable, Hashable {
    /// Proposals and commits.
    case handshake
    /// Application messages.
    case application

    /// The ratchet used for content of `type`.
    public init(contentType: ContentType) {
        self = contentType == .application ? .application : .handshake
    }
}

/// An AEAD key and nonce of one ratchet generation.
public struct RatchetKey: Sendable, Hashable {
    /// The generation the key belongs to.
    public var generation: UInt32
    /// The AEAD key (`AEAD.Nk` bytes).
    public var key: [UInt8]
    /// The AEAD nonce (`AEAD.Nn` bytes).
    public var nonce: [UInt8]

    /// Creates a key.
    public init(generation: UInt32, key: [UInt8], nonce: [UInt8]) {
        self.generation = generation
        self.key = key
        self.nonce = nonce
    }
}
