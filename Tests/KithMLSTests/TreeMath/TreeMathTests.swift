import KithMLS
import KithMLSConformance
import Testing

@Suite struct TreeMathTests {
    @Test func treeMathVectorsPass() throws {
        let result = try VectorFiles.runAll(TreeMathVector.self, expectedCases: 10)
        #expect(result.skipped == 0)
    }

    @Test func rejectsNonPowerOfTwoLeafCounts() {
        #expect(TreeMath(leafCount: 0) == nil)
        #expect(TreeMath(leafCount: 3) == nil)
        #expect(TreeMath(leafCount: 6) == nil)
    }

    @Test func outOfRangeNodesHaveNoParent() throws {
        let math = try #require(TreeMath(leafCount: 4))
        #expect(math.parent(NodeIndex(7)) == nil)
        #expect(math.parent(math.root) == nil)
        #expect(math.left(NodeIndex(0)) == nil)
    }

    @Test func directPathAndCopath() throws {
        let math = try #require(TreeMath(leafCount: 8))
        #expect(math.directPath(NodeIndex(0)).map(\.value) == [1, 3, 7])
        #expect(math.copath(NodeIndex(0)).map(\.value) == [2, 5, 11])
        #expect(math.commonAncestor(NodeIndex(0), NodeIndex(6)).value == 3)
        #expect(math.commonAncestor(NodeIndex(4), NodeIndex(8)).value == 7)
        #expect(math.commonAncestor(NodeIndex(2), NodeIndex(2)).value == 2)
        #expect(math.leaves(under: NodeIndex(3)) == 0...3)
    }
}
