/// One symmetric hash ratchet of a leaf (RFC 9420 §9.1), with a bounded store of skipped keys for out-of-order messages.
struct HashRatchet: Sendable, Hashable {
    /// The ratchet secret of `generation`.
    private(set) var secret: [UInt8]
    /// The next generation not yet derived.
    private(set) var generation: UInt32
    /// Keys of skipped generations, deleted once used.
    private(set) var skipped: [UInt32: RatchetKey] = [:]

    init(secret: [UInt8]) {
        self.secret = secret
        self.generation = 0
    }

    /// Reassembles a ratchet at `generation` with its retained skipped keys, as read back from a serialized group state.
    init(secret: [UInt8], generation: UInt32, skipped: [UInt32: RatchetKey]) {
        self.secret = secret
        self.generation = generation
        self.skipped = skipped
    }

    private func derive(_ suite: CipherSuite) throws -> RatchetKey {
        RatchetKey(generation: generation,
                   key: try suite.deriveTreeSecret(secret: secret, label: "key", generation: generation, length: suite.aead.keySize),
                   nonce: try suite.deriveTreeSecret(secret: secret, label: "nonce", generation: generation, length: suite.aead.nonceSize))
    }

    private mutating func advance(_ suite: CipherSuite, leaf: LeafIndex) throws {
        guard generation < UInt32.max else { throw MLSSecretTreeError.generationExhausted(leaf) }
        secret = try suite.deriveTreeSecret(secret: secret, label: "secret", generation: generation, length: suite.secretSize)
        generation += 1
    }

    /// The key of the current generation for sending; the ratchet moves past it.
    mutating func next(_ suite: CipherSuite, leaf: LeafIndex) throws -> RatchetKey {
        let key = try derive(suite)
        try advance(suite, leaf: leaf)
        return key
    }

    /// The key of `target` for receiving; skipped generations are retained, and the returned key is forgotten.
    mutating func key(for target: UInt32, _ suite: CipherSuite, leaf: LeafIndex) throws -> RatchetKey {
        if target < generation {
            guard let key = skipped.removeValue(forKey: target) else { throw MLSSecretTreeError.generationConsumed(leaf, target) }
            return key
        }
        guard target - generation <= MLSLimits.maxForwardRatchet else { throw MLSSecretTreeError.generationTooFarAhead(leaf, target) }
        var work = self
        while work.generation < target {
            let key = try work.derive(suite)
            work.skipped[key.generation] = key
            try work.advance(suite, leaf: leaf)
        }
        let key = try work.derive(suite)
        try work.advance(suite, leaf: leaf)
        while work.skipped.count > Int(MLSLimits.maxForwardRatchet), let oldest = work.skipped.keys.min() {
            work.skipped.removeValue(forKey: oldest)
        }
        self = work
        return key
    }
}
