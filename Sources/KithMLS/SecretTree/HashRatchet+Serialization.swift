/// The stored form of one hash ratchet, part of a serialized ``GroupState``:
///
/// ```
/// struct {
///     opaque secret<V>;               // Nh bytes
///     uint32 generation;
///     RatchetKeyState skipped<V>;     // ascending generation, at most MLSLimits.maxForwardRatchet
/// } HashRatchetState;
/// struct { uint32 generation; opaque key<V>; opaque nonce<V>; } RatchetKeyState;
/// ```
extension HashRatchet {
    /// Writes the ratchet's secret, next generation and retained skipped keys.
    func encodeState(to writer: inout TLSWriter) {
        writer.writeOpaque(secret)
        writer.writeUInt32(generation)
        writer.writeVector { inner in
            for (generation, key) in skipped.sorted(by: { $0.key < $1.key }) {
                inner.writeUInt32(generation)
                inner.writeOpaque(key.key)
                inner.writeOpaque(key.nonce)
            }
        }
    }

    /// Reads a ratchet written by ``encodeState(to:)``, checking sizes against `suite` and that every skipped key lies
    /// behind the ratchet's generation.
    init(stateFrom reader: inout TLSReader, suite: CipherSuite) throws {
        let secret = try reader.readOpaque(exactly: suite.secretSize, field: "hash ratchet secret")
        let generation = try reader.readUInt32()
        let keys = try reader.readVector(atMost: Int(MLSLimits.maxForwardRatchet), field: "skipped ratchet keys") { sub in
            RatchetKey(generation: try sub.readUInt32(),
                       key: try sub.readOpaque(exactly: suite.aead.keySize, field: "skipped ratchet key"),
                       nonce: try sub.readOpaque(exactly: suite.aead.nonceSize, field: "skipped ratchet nonce"))
        }
        try CanonicalOrder.checkAscending(keys.map(\.generation), field: "skipped ratchet keys")
        if let last = keys.last, last.generation >= generation {
            throw MLSCodecError.invalidValue(field: "skipped ratchet keys", reason: "generation \(last.generation) is not behind \(generation)")
        }
        self.init(secret: secret, generation: generation,
                  skipped: Dictionary(uniqueKeysWithValues: keys.map { ($0.generation, $0) }))
    }
}
