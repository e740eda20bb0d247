import KithMLS
import KithMLSConformance
import Testing

/// The memoized tree hashes always equal hashes computed from scratch, across changes and shared copies.
@Suite struct TreeHashCacheTests {
    private static func leaves(_ count: Int, suite: CipherSuite) throws -> [LeafNode] {
        try (0..<count).map { index in
            try KeyPackage.generate(suite: suite, credential: .basic(identity: [UInt8(index)]), signatureKeys: suite.signature.generateKeyPair(),
                                    lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage.leafNode
        }
    }

    /// Hashes of a fresh tree value with an empty cache.
    private func fresh(_ tree: RatchetTree) throws -> RatchetTree { try RatchetTree(nodes: tree.nodes) }

    @Test func cachedHashesMatchFreshOnesAcrossRandomChanges() throws {
        let suite = try CipherSuite(rawValue: 1)
        let pool = try Self.leaves(12, suite: suite)
        var rng = SeededGenerator(seed: 0x7EE5)
        var tree = RatchetTree(firstLeaf: pool[0])
        var snapshots: [(tree: RatchetTree, hash: [UInt8])] = []
        for step in 0..<80 {
            let occupied = tree.occupiedLeaves
            switch Int.random(in: 0..<4, using: &rng) {
            case 0 where occupied.count < pool.count:
                try tree.addLeaf(try #require(pool.randomElement(using: &rng)))
            case 1 where occupied.count > 1:
                try tree.removeLeaf(try #require(occupied.randomElement(using: &rng)))
            case 2:
                try tree.updateLeaf(try #require(pool.randomElement(using: &rng)), at: try #require(occupied.randomElement(using: &rng)))
            default:
                // A parent node with one unmerged leaf below it, or a blank.
                let parents = stride(from: UInt32(1), to: tree.math.nodeCount, by: 2).map(NodeIndex.init)
                guard let node = parents.randomElement(using: &rng) else { continue }
                let below = occupied.filter { tree.math.isInSubtree($0.nodeIndex, of: node) }
                let parent = ParentNode(encryptionKey: [UInt8(step)], parentHash: [1], unmergedLeaves: Array(below.prefix(1)))
                tree.setNode(rng.chance(70) ? .parent(parent) : nil, at: node)
            }
            let reference = try fresh(tree)
            #expect(tree.rootTreeHash(suite: suite) == reference.rootTreeHash(suite: suite), "step \(step)")
            for node in stride(from: UInt32(0), to: tree.math.nodeCount, by: 1).map(NodeIndex.init) {
                let excluded = Set(tree.occupiedLeaves.prefix(1))
                #expect(tree.treeHash(of: node, suite: suite, excluding: excluded) == reference.treeHash(of: node, suite: suite, excluding: excluded))
            }
            #expect(tree.allTreeHashes(suite: suite) == reference.allTreeHashes(suite: suite))
            if rng.chance(30) { snapshots.append((tree, tree.rootTreeHash(suite: suite))) }
        }
        // Copies taken along the way kept their own hashes although they shared the cache.
        for snapshot in snapshots {
            #expect(snapshot.tree.rootTreeHash(suite: suite) == snapshot.hash)
            #expect(try fresh(snapshot.tree).rootTreeHash(suite: suite) == snapshot.hash)
        }
    }

    @Test func hashesOfAnotherSuiteAreNotReused() throws {
        let one = try CipherSuite(rawValue: 1)
        let seven = try CipherSuite(rawValue: 7)
        var tree = RatchetTree(firstLeaf: try Self.leaves(1, suite: one)[0])
        try tree.addLeaf(try Self.leaves(1, suite: one)[0])
        let first = tree.rootTreeHash(suite: one)
        let other = tree.rootTreeHash(suite: seven)
        #expect(first != other)
        #expect(other == (try fresh(tree)).rootTreeHash(suite: seven))
        #expect(tree.rootTreeHash(suite: one) == first)
    }
}
