import KithMLS
import KithMLSConformance
import Testing

@Suite struct SecretTreeTests {
    @Test func secretTreeVectorsPass() throws {
        let result = try VectorFiles.runAll(SecretTreeVector.self, expectedCases: 21)
        #expect(result.skipped == 6)
    }

    private func makeTree() throws -> SecretTree {
        let suite = try CipherSuite(rawValue: 1)
        return try SecretTree(suite: suite, encryptionSecret: [UInt8](repeating: 3, count: 32), leafCount: 4)
    }

    @Test func keyCanBeObtainedOnlyOnce() throws {
        var tree = try makeTree()
        _ = try tree.key(leaf: LeafIndex(1), kind: .application, generation: 5)
        #expect(throws: MLSSecretTreeError.generationConsumed(LeafIndex(1), 5)) {
            try tree.key(leaf: LeafIndex(1), kind: .application, generation: 5)
        }
    }

    @Test func skippedKeysRemainAvailableOnce() throws {
        var tree = try makeTree()
        let later = try tree.key(leaf: LeafIndex(2), kind: .handshake, generation: 3)
        let earlier = try tree.key(leaf: LeafIndex(2), kind: .handshake, generation: 1)
        #expect(later.generation == 3 && earlier.generation == 1)
        #expect(throws: MLSSecretTreeError.self) { try tree.key(leaf: LeafIndex(2), kind: .handshake, generation: 1) }
    }

    @Test func senderAndReceiverAgree() throws {
        var sender = try makeTree()
        var receiver = try makeTree()
        for _ in 0..<3 {
            let sent = try sender.nextKey(leaf: LeafIndex(0), kind: .application)
            let received = try receiver.key(leaf: LeafIndex(0), kind: .application, generation: sent.generation)
            #expect(sent == received)
        }
    }

    @Test func rejectsFarFutureGenerationAndUnknownLeaf() throws {
        var tree = try makeTree()
        #expect(throws: MLSSecretTreeError.generationTooFarAhead(LeafIndex(0), 5000)) {
            try tree.key(leaf: LeafIndex(0), kind: .application, generation: 5000)
        }
        #expect(throws: MLSSecretTreeError.leafOutOfRange(LeafIndex(4))) {
            try tree.key(leaf: LeafIndex(4), kind: .application, generation: 0)
        }
    }
}
