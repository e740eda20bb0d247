import Foundation
import KithMLS
import KithMLSConformance
import KithTestSupport
import Testing

/// Each tree validation rule rejects a tampered copy of an official valid tree.
@Suite struct TreeRejectionTests {
    private struct ValidationCase: Decodable {
        let cipher_suite: UInt16
        let tree: String
        let group_id: String
    }

    /// A suite-1 tree from tree-validation.json with at least one parent node and one commit leaf.
    private func sampleTree() throws -> (RatchetTree, CipherSuite, [UInt8]) {
        let data = try TestPaths.officialVector("mls/tree-validation.json")
        let cases = try JSONDecoder().decode([ValidationCase].self, from: data)
        for item in cases where item.cipher_suite == 1 {
            let tree = try RatchetTree(tlsEncoded: try #require(TestPaths.hex(item.tree)))
            let parents = stride(from: UInt32(1), to: UInt32(tree.nodes.count), by: 2).filter { tree.parent(NodeIndex($0)) != nil }
            if parents.count >= 2 { return (tree, try CipherSuite(rawValue: 1), try #require(TestPaths.hex(item.group_id))) }
        }
        throw MLSTreeError.treeFull
    }

    /// The filtered direct path (found by scanning subtrees for a non-blank node) matches its definition through
    /// resolutions (RFC 9420 §4.1.2) on every official tree and leaf.
    @Test func filteredDirectPathMatchesTheResolutionDefinition() throws {
        let data = try TestPaths.officialVector("mls/tree-validation.json")
        for item in try JSONDecoder().decode([ValidationCase].self, from: data) where item.cipher_suite == 1 {
            let tree = try RatchetTree(tlsEncoded: try #require(TestPaths.hex(item.tree)))
            for leaf in 0..<tree.leafCount {
                var expected: [NodeIndex] = []
                var child = LeafIndex(leaf).nodeIndex
                while let parent = tree.math.parent(child), let sibling = tree.math.sibling(child) {
                    if !tree.resolution(of: sibling).isEmpty { expected.append(parent) }
                    child = parent
                }
                #expect(tree.filteredDirectPath(of: LeafIndex(leaf)) == expected)
            }
        }
    }

    @Test func validSampleTreeValidates() throws {
        let (tree, suite, groupID) = try sampleTree()
        try tree.validate(suite: suite, groupID: groupID)
    }

    @Test func tamperedLeafSignatureIsRejected() throws {
        var (tree, suite, groupID) = try sampleTree()
        let leaf = try #require(tree.occupiedLeaves.first)
        var node = try #require(tree.leaf(leaf))
        node.signature[0] ^= 1
        tree.setNode(.leaf(node), at: leaf.nodeIndex)
        #expect(throws: MLSTreeError.invalidLeafSignature(leaf)) { try tree.validate(suite: suite, groupID: groupID) }
    }

    @Test func wrongGroupIDBreaksCommitLeafSignatures() throws {
        let (tree, suite, groupID) = try sampleTree()
        #expect(throws: MLSTreeError.self) { try tree.validate(suite: suite, groupID: groupID + [0]) }
    }

    @Test func tamperedParentKeyBreaksParentHash() throws {
        var (tree, suite, groupID) = try sampleTree()
        let index = try #require(stride(from: UInt32(1), to: UInt32(tree.nodes.count), by: 2).first { tree.parent(NodeIndex($0)) != nil })
        var parent = try #require(tree.parent(NodeIndex(index)))
        parent.encryptionKey = suite.kem.generateKeyPair().publicKey
        tree.setNode(.parent(parent), at: NodeIndex(index))
        #expect(throws: MLSTreeError.self) { try tree.verifyParentHashes(suite: suite) }
        #expect(throws: MLSTreeError.self) { try tree.validate(suite: suite, groupID: groupID) }
    }

    @Test func unmergedLeafOutsideSubtreeIsRejected() throws {
        var (tree, suite, groupID) = try sampleTree()
        let index = try #require(stride(from: UInt32(1), to: UInt32(tree.nodes.count), by: 2).first { tree.parent(NodeIndex($0)) != nil })
        var parent = try #require(tree.parent(NodeIndex(index)))
        parent.unmergedLeaves = [LeafIndex(tree.leafCount + 5)]
        tree.setNode(.parent(parent), at: NodeIndex(index))
        #expect(throws: MLSTreeError.invalidUnmergedLeaves(NodeIndex(index))) { try tree.validate(suite: suite, groupID: groupID) }
    }

    @Test func duplicateParentKeyIsRejected() throws {
        var (tree, suite, groupID) = try sampleTree()
        let parents = stride(from: UInt32(1), to: UInt32(tree.nodes.count), by: 2).filter { tree.parent(NodeIndex($0)) != nil }
        let first = try #require(tree.parent(NodeIndex(parents[0])))
        var second = try #require(tree.parent(NodeIndex(parents[1])))
        second.encryptionKey = first.encryptionKey
        tree.setNode(.parent(second), at: NodeIndex(parents[1]))
        #expect(throws: MLSTreeError.self) { try tree.validate(suite: suite, groupID: groupID) }
    }

    @Test func misplacedNodeTypesAreRejected() throws {
        let (tree, _, _) = try sampleTree()
        var nodes = tree.nodes
        nodes.swapAt(0, 1)
        #expect(throws: MLSTreeError.self) { try RatchetTree(nodes: nodes) }
        #expect(throws: MLSTreeError.malformedEncoding("even number of nodes")) { try RatchetTree(nodes: Array(nodes.prefix(2))) }
    }

    @Test func removeOfBlankLeafIsRejected() throws {
        var (tree, _, _) = try sampleTree()
        #expect(throws: MLSTreeError.self) { try tree.removeLeaf(LeafIndex(tree.leafCount + 1)) }
    }
}
