import KithMLS
import KithMLSConformance
import Testing

@Suite struct KeyScheduleTests {
    @Test func keyScheduleVectorsPass() throws {
        let result = try VectorFiles.runAll(KeyScheduleVector.self, expectedCases: 7)
        #expect(result.skipped == 2)
    }

    @Test func pskSecretVectorsPass() throws {
        let result = try VectorFiles.runAll(PSKSecretVector.self, expectedCases: 77)
        #expect(result.skipped == 22)
    }

    @Test func transcriptHashVectorsPass() throws {
        let result = try VectorFiles.runAll(TranscriptHashesVector.self, expectedCases: 7)
        #expect(result.skipped == 2)
    }

    @Test func emptyPSKListIsZero() throws {
        let suite = try CipherSuite(rawValue: 7)
        #expect(try PreSharedKey.pskSecret(suite: suite, psks: []) == [UInt8](repeating: 0, count: 48))
    }

    @Test func pskOrderMatters() throws {
        let suite = try CipherSuite(rawValue: 1)
        let a = PreSharedKey(id: PreSharedKeyID(kind: .external(id: [1]), nonce: [1]), secret: [1])
        let b = PreSharedKey(id: PreSharedKeyID(kind: .external(id: [2]), nonce: [2]), secret: [2])
        #expect(try PreSharedKey.pskSecret(suite: suite, psks: [a, b]) != PreSharedKey.pskSecret(suite: suite, psks: [b, a]))
    }

    @Test func exporterDependsOnLabelAndContext() throws {
        let suite = try CipherSuite(rawValue: 1)
        let context = GroupContext(cipherSuite: suite.id, groupID: [1], epoch: 0, treeHash: [], confirmedTranscriptHash: [], extensions: [])
        let secrets = try EpochSecrets(suite: suite, initSecret: suite.zeroSecret, commitSecret: suite.zeroSecret, pskSecret: suite.zeroSecret, context: context)
        let base = try secrets.export(label: "a", context: [1], length: 16)
        #expect(base.count == 16)
        #expect(try secrets.export(label: "b", context: [1], length: 16) != base)
        #expect(try secrets.export(label: "a", context: [2], length: 16) != base)
    }
}
