import KithMLS
import KithMLSConformance
import Testing

@Suite struct WelcomeTests {
    @Test func welcomeVectorsPass() throws {
        let result = try VectorFiles.runAll(WelcomeVector.self, expectedCases: 7)
        #expect(result.skipped == 2)
    }

    @Test func welcomeForAnotherKeyPackageIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let welcome = Welcome(cipherSuite: suite.id, secrets: [], encryptedGroupInfo: [])
        #expect(throws: MLSWelcomeError.notForThisKeyPackage) {
            try welcome.decryptGroupSecrets(suite: suite, keyPackageRef: [1], initPrivateKey: [])
        }
        let other = Welcome(cipherSuite: CipherSuiteID(rawValue: 3), secrets: [], encryptedGroupInfo: [])
        #expect(throws: MLSWelcomeError.cipherSuiteMismatch) {
            try other.decryptGroupSecrets(suite: suite, keyPackageRef: [1], initPrivateKey: [])
        }
    }
}
