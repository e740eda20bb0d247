import KithMLS
import KithMLSConformance
import Testing

@Suite struct MessageProtectionTests {
    @Test func messageProtectionVectorsPass() throws {
        let result = try VectorFiles.runAll(MessageProtectionVector.self, expectedCases: 7)
        #expect(result.skipped == 2)
    }

    private struct Fixture {
        let suite: CipherSuite
        let signer: KeyPair
        let context: GroupContext
        let senderDataSecret = [UInt8](repeating: 5, count: 32)
        let encryptionSecret = [UInt8](repeating: 6, count: 32)

        init() throws {
            suite = try CipherSuite(rawValue: 1)
            signer = suite.signature.generateKeyPair()
            context = GroupContext(cipherSuite: suite.id, groupID: [1, 2], epoch: 4, treeHash: [7], confirmedTranscriptHash: [8], extensions: [])
        }

        func tree() throws -> SecretTree { try SecretTree(suite: suite, encryptionSecret: encryptionSecret, leafCount: 2) }

        func signed(_ wireFormat: WireFormat, sender: Sender = .member(LeafIndex(0))) throws -> AuthenticatedContent {
            let content = FramedContent(groupID: [1, 2], epoch: 4, sender: sender, authenticatedData: [9], body: .application([1, 2, 3]))
            return try AuthenticatedContent.sign(wireFormat: wireFormat, content: content, context: context, suite: suite,
                                                 signaturePrivateKey: signer.privateKey)
        }
    }

    @Test func tamperedPrivateMessageIsRejectedWithoutConsumingKey() throws {
        let fixture = try Fixture()
        var senderTree = try fixture.tree()
        var message = try PrivateMessageProtection.encrypt(try fixture.signed(.privateMessage), suite: fixture.suite, secretTree: &senderTree,
                                                           senderDataSecret: fixture.senderDataSecret)
        var receiverTree = try fixture.tree()
        let original = message
        message.ciphertext[message.ciphertext.count - 1] ^= 1
        #expect(throws: MLSCryptoError.self) {
            try PrivateMessageProtection.decrypt(message, suite: fixture.suite, secretTree: &receiverTree, senderDataSecret: fixture.senderDataSecret)
        }
        let content = try PrivateMessageProtection.decrypt(original, suite: fixture.suite, secretTree: &receiverTree, senderDataSecret: fixture.senderDataSecret)
        #expect(content.verifySignature(suite: fixture.suite, signerKey: fixture.signer.publicKey, context: fixture.context))
        // Replaying the same message fails: the key was consumed.
        #expect(throws: MLSSecretTreeError.self) {
            try PrivateMessageProtection.decrypt(original, suite: fixture.suite, secretTree: &receiverTree, senderDataSecret: fixture.senderDataSecret)
        }
    }

    @Test func changedAuthenticatedDataIsRejected() throws {
        let fixture = try Fixture()
        var senderTree = try fixture.tree()
        var message = try PrivateMessageProtection.encrypt(try fixture.signed(.privateMessage), suite: fixture.suite, secretTree: &senderTree,
                                                           senderDataSecret: fixture.senderDataSecret)
        message.authenticatedData = [10]
        var receiverTree = try fixture.tree()
        #expect(throws: MLSCryptoError.self) {
            try PrivateMessageProtection.decrypt(message, suite: fixture.suite, secretTree: &receiverTree, senderDataSecret: fixture.senderDataSecret)
        }
    }

    @Test func nonMemberCannotEncrypt() throws {
        let fixture = try Fixture()
        var tree = try fixture.tree()
        #expect(throws: MLSFramingError.senderNotMember) {
            try PrivateMessageProtection.encrypt(try fixture.signed(.privateMessage, sender: .newMemberProposal), suite: fixture.suite,
                                                 secretTree: &tree, senderDataSecret: fixture.senderDataSecret)
        }
    }

    @Test func wrongMembershipTagIsRejected() throws {
        let fixture = try Fixture()
        var message = try PublicMessageProtection.protect(try fixture.signed(.publicMessage), suite: fixture.suite,
                                                          membershipKey: [1, 1, 1], context: fixture.context)
        #expect(throws: MLSFramingError.invalidMembershipTag) {
            try PublicMessageProtection.unprotect(message, suite: fixture.suite, membershipKey: [2, 2, 2], context: fixture.context)
        }
        message.membershipTag = nil
        #expect(throws: MLSFramingError.invalidMembershipTag) {
            try PublicMessageProtection.unprotect(message, suite: fixture.suite, membershipKey: [1, 1, 1], context: fixture.context)
        }
    }

    @Test func signatureCoversGroupContext() throws {
        let fixture = try Fixture()
        let content = try fixture.signed(.publicMessage)
        var otherContext = fixture.context
        otherContext.epoch += 1
        #expect(content.verifySignature(suite: fixture.suite, signerKey: fixture.signer.publicKey, context: fixture.context))
        #expect(!content.verifySignature(suite: fixture.suite, signerKey: fixture.signer.publicKey, context: otherContext))
    }
}
