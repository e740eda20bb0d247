import KithMLS
import KithMLSConformance
import Testing

/// Replayed, out-of-epoch and foreign-group messages are rejected with typed errors and leave the state unchanged.
@Suite struct ReplayTests {
    private static let configuration = GroupConfiguration(clock: { nil })

    /// Alice and Bob in epoch 1 of a suite-1 group.
    private func pair(groupID: [UInt8] = [9]) throws -> (alice: GroupState, bob: GroupState) {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: groupID, keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        let bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)
        return (setup.newState, bobState)
    }

    @Test func replayedApplicationMessageIsRejected() throws {
        var (alice, bob) = try pair()
        let message = try alice.encryptApplication([1, 2, 3])
        #expect(try bob.handle(message) == .application(data: [1, 2, 3], sender: alice.ownLeaf))
        #expect(throws: MLSSecretTreeError.generationConsumed(alice.ownLeaf, 0)) { try bob.handle(message) }
        // Later messages still decrypt after the rejected replay.
        let next = try alice.encryptApplication([4])
        #expect(try bob.handle(next) == .application(data: [4], sender: alice.ownLeaf))
    }

    @Test func replayedPrivateProposalIsRejectedAndPublicOneIsNotDuplicated() throws {
        var (alice, bob) = try pair()
        let privateProposal = try alice.proposeUpdate(wireFormat: .privateMessage)
        _ = try bob.handle(privateProposal)
        #expect(throws: MLSSecretTreeError.self) { try bob.handle(privateProposal) }
        let publicProposal = try alice.proposeUpdate(wireFormat: .publicMessage)
        _ = try bob.handle(publicProposal)
        _ = try bob.handle(publicProposal)
        #expect(bob.pendingProposals.count == 2)
    }

    @Test func replayedCommitIsRejected() throws {
        var (alice, bob) = try pair()
        for wireFormat in [WireFormat.publicMessage, .privateMessage] {
            let commit = try alice.commit(wireFormat: wireFormat)
            alice = commit.newState
            let epoch = bob.epoch
            #expect(try bob.handle(commit.message) == .newEpoch(epoch + 1))
            let before = bob.epochAuthenticator
            #expect(throws: MLSGroupError.wrongEpoch(expected: epoch + 1, actual: epoch)) { try bob.handle(commit.message) }
            #expect(bob.epochAuthenticator == before)
        }
    }

    @Test func futureEpochMessagesAreRejected() throws {
        var (alice, bob) = try pair()
        let commit = try alice.commit()
        var future = commit.newState
        let application = try future.encryptApplication([5])
        let proposal = try future.proposeUpdate()
        #expect(throws: MLSGroupError.wrongEpoch(expected: 1, actual: 2)) { try bob.handle(application) }
        #expect(throws: MLSGroupError.wrongEpoch(expected: 1, actual: 2)) { try bob.handle(proposal) }
        #expect(bob.epoch == 1 && bob.pendingProposals.isEmpty)
    }

    @Test func messagesOfAnotherGroupAreRejected() throws {
        var (alice, _) = try pair()
        var (_, otherBob) = try pair(groupID: [10])
        let application = try alice.encryptApplication([6])
        let proposal = try alice.proposeUpdate()
        #expect(throws: MLSFramingError.wrongGroupOrEpoch) { try otherBob.handle(application) }
        #expect(throws: MLSFramingError.wrongGroupOrEpoch) { try otherBob.handle(proposal) }
    }

    @Test func pastEpochHandshakesAreRejectedEvenWithinTheRetentionWindow() throws {
        var (alice, bob) = try pair()
        let staleProposal = try bob.proposeUpdate(wireFormat: .privateMessage)
        let staleCommit = try bob.commit(wireFormat: .privateMessage)
        let commit = try alice.commit()
        alice = commit.newState
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(staleProposal) }
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(staleCommit.message) }
    }
}
