import KithMLS
import KithMLSConformance
import Testing

@Suite struct TreeKEMTests {
    @Test func treeKEMVectorsPass() throws {
        let result = try VectorFiles.runAll(TreeKEMVector.self, expectedCases: 77)
        #expect(result.skipped == 22)
    }
}
