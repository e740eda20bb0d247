/// The stored form of a secret tree: every unconsumed node secret and every started ratchet with its skipped keys, so a
/// restored tree hands out exactly the keys the original would (and refuses the ones it already used).
extension SecretTree {
    /// Encodes `leafCount u32 | node secrets<V> | handshake ratchets<V> | application ratchets<V>`, entries sorted by
    /// index so equal trees encode equally.
    func encodeState(to writer: inout TLSWriter) {
        writer.writeUInt32(math.leafCount)
        writer.writeVector { inner in
            for (node, secret) in nodeSecrets.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(node)
                inner.writeOpaque(secret)
            }
        }
        for ratchets in [handshake, application] {
            writer.writeVector { inner in
                for (leaf, ratchet) in ratchets.sorted(by: { $0.key < $1.key }) {
                    inner.writeUInt32(leaf)
                    ratchet.encodeState(to: &inner)
                }
            }
        }
    }

    /// Decodes ``encodeState(to:)`` for `suite`; every index must lie inside the tree.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        let leafCount = try reader.readUInt32()
        guard let math = TreeMath(leafCount: leafCount) else {
            throw MLSCodecError.invalidValue(field: "SecretTree.leafCount", reason: "\(leafCount) is not a power of two")
        }
        self.init(suite: suite, encryptionSecret: [], math: math)
        nodeSecrets = [:]
        var nodes = try reader.readVectorReader()
        while !nodes.isAtEnd {
            let node = try nodes.readUInt32()
            guard math.contains(NodeIndex(node)) else { throw MLSCodecError.invalidValue(field: "SecretTree.node", reason: "\(node) outside the tree") }
            nodeSecrets[node] = try nodes.readOpaque()
        }
        handshake = try Self.readRatchets(&reader, leafCount: leafCount, suite: suite)
        application = try Self.readRatchets(&reader, leafCount: leafCount, suite: suite)
    }

    private static func readRatchets(_ reader: inout TLSReader, leafCount: UInt32, suite: CipherSuite) throws -> [UInt32: HashRatchet] {
        var ratchets: [UInt32: HashRatchet] = [:]
        var inner = try reader.readVectorReader()
        while !inner.isAtEnd {
            let leaf = try inner.readUInt32()
            guard leaf < leafCount else { throw MLSCodecError.invalidValue(field: "SecretTree.leaf", reason: "\(leaf) outside the tree") }
            ratchets[leaf] = try HashRatchet(stateFrom: &inner, suite: suite)
        }
        return ratchets
    }
}

extension HashRatchet {
    /// Encodes `secret<V> | generation u32 | skipped<V> (generation u32, key<V>, nonce<V>)*`.
    func encodeState(to writer: inout TLSWriter) {
        writer.writeOpaque(secret)
        writer.writeUInt32(generation)
        writer.writeVector { inner in
            for (_, key) in skipped.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(key.generation)
                inner.writeOpaque(key.key)
                inner.writeOpaque(key.nonce)
            }
        }
    }

    /// Decodes ``encodeState(to:)``; at most ``MLSLimits/maxForwardRatchet`` skipped keys, all below the generation.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        self.init(secret: try reader.readOpaque())
        guard secret.count == suite.secretSize else { throw MLSCodecError.invalidLength(field: "HashRatchet.secret", expected: suite.secretSize, actual: secret.count) }
        generation = try reader.readUInt32()
        var inner = try reader.readVectorReader()
        while !inner.isAtEnd {
            let key = RatchetKey(generation: try inner.readUInt32(), key: try inner.readOpaque(), nonce: try inner.readOpaque())
            guard key.generation < generation, skipped.count < Int(MLSLimits.maxForwardRatchet) else {
                throw MLSCodecError.invalidValue(field: "HashRatchet.skipped", reason: "generation \(key.generation) or count out of bounds")
            }
            skipped[key.generation] = key
        }
    }
}
