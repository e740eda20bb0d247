import KithMLS
import KithMLSConformance
import Testing

@Suite struct TreeValidationTests {
    @Test func treeValidationVectorsPass() throws {
        let result = try VectorFiles.runAll(TreeValidationVector.self, expectedCases: 98)
        #expect(result.skipped == 28)
    }
}
