import KithMLS
import KithMLSConformance
import Testing

@Suite struct ExternalSenderTests {
    static let configuration = GroupConfiguration(clock: { nil })

    @Test func externalRemoveIsCommittedByAMember() throws {
        let suite = try CipherSuite(rawValue: 1)
        let server = suite.signature.generateKeyPair()
        let senders = ExternalSender.extensionFor([ExternalSender(signatureKey: server.publicKey, credential: .basic(identity: Array("ds".utf8)))])
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: [5], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: [senders],
                                        configuration: Self.configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = setup.newState
        var bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)

        let remove = try ExternalSender.propose(.remove(bobState.ownLeaf), groupID: [5], epoch: aliceState.epoch, senderIndex: 0, suite: suite,
                                                signaturePrivateKey: server.privateKey)
        if case .proposal = try aliceState.handle(remove) {} else { Issue.record("expected a proposal") }
        _ = try bobState.handle(remove)
        let commit = try aliceState.commit()
        #expect(try bobState.handle(commit.message) == .removedFromGroup)
        #expect(commit.newState.tree.occupiedLeaves == [LeafIndex(0)])
    }

    @Test func unknownOrForgedExternalSenderIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let server = suite.signature.generateKeyPair()
        let senders = ExternalSender.extensionFor([ExternalSender(signatureKey: server.publicKey, credential: .basic(identity: [0]))])
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var state = try GroupState(creating: [6], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: [senders],
                                   configuration: Self.configuration)
        let gce = Proposal.groupContextExtensions([])
        let unknownIndex = try ExternalSender.propose(gce, groupID: [6], epoch: 0, senderIndex: 1, suite: suite, signaturePrivateKey: server.privateKey)
        #expect(throws: MLSGroupError.invalidSender("unknown external sender 1")) { try state.handle(unknownIndex) }
        let forged = try ExternalSender.propose(gce, groupID: [6], epoch: 0, senderIndex: 0, suite: suite,
                                                signaturePrivateKey: suite.signature.generateKeyPair().privateKey)
        #expect(throws: MLSFramingError.invalidSignature) { try state.handle(forged) }
        #expect(throws: MLSGroupError.self) {
            try ExternalSender.propose(.update(alice.keyPackage.leafNode), groupID: [6], epoch: 0, senderIndex: 0, suite: suite,
                                       signaturePrivateKey: server.privateKey)
        }
        #expect(state.pendingProposals.isEmpty)
    }
}
