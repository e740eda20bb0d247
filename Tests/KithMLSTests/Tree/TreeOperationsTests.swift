import KithMLS
import KithMLSConformance
import Testing

@Suite struct TreeOperationsTests {
    @Test func treeOperationsVectorsPass() throws {
        let result = try VectorFiles.runAll(TreeOperationsVector.self, expectedCases: 5)
        #expect(result.skipped == 0)
    }
}
