import KithMLS
/// A `secret-tree.json` case (RFC 9420 §9, §6.3.2).
public struct SecretTreeVector: ConformanceVector {
    /// `secret-tree.json`.
    public static let fileName = "secret-tree.json"

    struct SenderDataCase: Decodable, Sendable { let sender_data_secret: HexString; let ciphertext: HexString; let key: HexString; let nonce: HexString }
    struct LeafCase: Decodable, Sendable {
        let generation: UInt32
        let handshake_key: HexString; let handshake_nonce: HexString
        let application_key: HexString; let application_nonce: HexString
    }

    let cipher_suite: UInt16
    let encryption_secret: HexString
    let sender_data: SenderDataCase
    let leaves: [[LeafCase]]

    /// Checks the sender-data key and nonce and every leaf's keys and nonces at each listed generation.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            let senderKey = try SenderDataKey(suite: suite, senderDataSecret: sender_data.sender_data_secret.bytes, ciphertext: sender_data.ciphertext.bytes)
            try Conformance.expectEqual("sender_data.key", senderKey.key, sender_data.key.bytes)
            try Conformance.expectEqual("sender_data.nonce", senderKey.nonce, sender_data.nonce.bytes)
            var tree = try SecretTree(suite: suite, encryptionSecret: encryption_secret.bytes, leafCount: UInt32(leaves.count))
            for (index, cases) in leaves.enumerated() {
                let leaf = LeafIndex(UInt32(index))
                for item in cases {
                    let h = try tree.key(leaf: leaf, kind: .handshake, generation: item.generation)
                    let a = try tree.key(leaf: leaf, kind: .application, generation: item.generation)
                    try Conformance.expectEqual("leaf \(index) gen \(item.generation) handshake_key", h.key, item.handshake_key.bytes)
                    try Conformance.expectEqual("leaf \(index) gen \(item.generation) handshake_nonce", h.nonce, item.handshake_nonce.bytes)
                    try Conformance.expectEqual("leaf \(index) gen \(item.generation) application_key", a.key, item.application_key.bytes)
                    try Conformance.expectEqual("leaf \(index) gen \(item.generation) application_nonce", a.nonce, item.application_nonce.bytes)
                }
            }
        }
    }
}
