import KithMLS
import KithMLSConformance
import Testing

@Suite struct MessagesCodecTests {
    @Test func messagesVectorsRoundTripByteExact() throws {
        let result = try VectorFiles.runAll(MessagesVector.self, expectedCases: 300)
        #expect(result.skipped == 0)
    }

    @Test func mlsMessageRejectsUnknownVersionAndWireFormat() {
        #expect(throws: MLSCodecError.unknownValue(field: "ProtocolVersion", value: 2)) { try MLSMessage(tlsEncoded: [0, 2, 0, 1]) }
        #expect(throws: MLSCodecError.unknownValue(field: "WireFormat", value: 9)) { try MLSMessage(tlsEncoded: [0, 1, 0, 9]) }
    }

    @Test func proposalRejectsUnknownType() {
        #expect(throws: MLSCodecError.unknownValue(field: "ProposalType", value: 0x0A0A)) { try Proposal(tlsEncoded: [0x0A, 0x0A, 0]) }
    }

    @Test func senderRejectsUnknownType() {
        #expect(throws: MLSCodecError.unknownValue(field: "SenderType", value: 5)) { try Sender(tlsEncoded: [5]) }
    }

    @Test func contentTypeRejectsZero() {
        #expect(throws: MLSCodecError.unknownValue(field: "ContentType", value: 0)) { try ContentType(tlsEncoded: [0]) }
    }

    @Test func credentialRejectsUnknownType() {
        #expect(throws: MLSCodecError.unknownValue(field: "CredentialType", value: 7)) { try Credential(tlsEncoded: [0, 7, 0]) }
    }

    @Test func pskIDRejectsUnknownTypeAndUsage() {
        #expect(throws: MLSCodecError.unknownValue(field: "PSKType", value: 3)) { try PreSharedKeyID(tlsEncoded: [3]) }
        #expect(throws: MLSCodecError.unknownValue(field: "ResumptionPSKUsage", value: 9)) { try PreSharedKeyID(tlsEncoded: [2, 9]) }
    }

    @Test func ratchetTreeRejectsMalformedEncodings() {
        // Empty list.
        #expect(throws: MLSTreeError.self) { try RatchetTree(tlsEncoded: [0]) }
        // A single blank node.
        #expect(throws: MLSTreeError.self) { try RatchetTree(tlsEncoded: [1, 0]) }
    }

    @Test func truncatedCommitFailsCleanly() throws {
        // Every prefix of a valid encoding must throw, never crash.
        let commit = Commit(proposals: [.proposal(.remove(LeafIndex(3)))], path: nil)
        let bytes = commit.tlsEncoded
        for cut in 0..<bytes.count {
            #expect(throws: (any Error).self) { try Commit(tlsEncoded: Array(bytes[..<cut])) }
        }
    }
}
