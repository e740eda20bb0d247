import KithMLS
import KithMLSConformance
import Testing

@Suite struct PassiveClientTests {
    @Test func passiveClientWelcomeVectorsPass() throws {
        let result = try VectorFiles.runAll(PassiveClientWelcomeVector.self, expectedCases: 56)
        #expect(result.skipped == 16)
    }

    @Test func passiveClientHandlingCommitVectorsPass() throws {
        let result = try VectorFiles.runAll(PassiveClientHandlingCommitVector.self, expectedCases: 91)
        #expect(result.skipped == 26)
    }

    @Test func passiveClientRandomVectorPasses() throws {
        let result = try VectorFiles.runAll(PassiveClientRandomVector.self, expectedCases: 1)
        #expect(result.skipped == 0)
    }
}
