import KithMLS
import KithMLSConformance
import Testing

@Suite struct ExternalJoinTests {
    static let configuration = GroupConfiguration(clock: { 1_700_000_000 })

    private func twoMemberGroup(_ suite: CipherSuite) throws -> (GroupState, GroupState) {
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: [9], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let pending = try aliceState.commit(adding: [bob.keyPackage])
        let bobState = try GroupState(welcome: try #require(pending.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)
        return (pending.newState, bobState)
    }

    @Test(arguments: [CipherSuiteID.x25519AES128SHA256Ed25519, .p256AES128SHA256P256])
    func externalJoinIsFollowedByMembers(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        var (alice, bob) = try twoMemberGroup(suite)
        let identity = ExternalJoinIdentity(credential: .basic(identity: [3]), signatureKeys: suite.signature.generateKeyPair())
        let joined = try GroupState.joinExternally(groupInfo: try alice.groupInfo(), identity: identity, configuration: Self.configuration)
        let message = joined.message
        var carol = joined.state
        #expect(try alice.handle(message) == .newEpoch(2))
        #expect(try bob.handle(message) == .newEpoch(2))
        #expect(Set([alice.epochAuthenticator, bob.epochAuthenticator, carol.epochAuthenticator]).count == 1)
        #expect(alice.tree == carol.tree)

        let hello = try carol.encryptApplication([4, 2])
        #expect(try alice.handle(hello) == .application(data: [4, 2], sender: carol.ownLeaf))
        // Carol can now commit like any member.
        let update = try carol.commit()
        carol = update.newState
        #expect(try bob.handle(update.message) == .newEpoch(3))
        #expect(bob.epochAuthenticator == carol.epochAuthenticator)
    }

    @Test func groupInfoWithoutExternalPubCannotBeJoined() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (alice, _) = try twoMemberGroup(suite)
        let identity = ExternalJoinIdentity(credential: .basic(identity: [3]), signatureKeys: suite.signature.generateKeyPair())
        #expect(throws: MLSGroupError.self) {
            try GroupState.joinExternally(groupInfo: try alice.groupInfo(includeExternalPub: false), identity: identity,
                                          configuration: Self.configuration)
        }
    }

    @Test func tamperedGroupInfoIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (alice, _) = try twoMemberGroup(suite)
        var info = try alice.groupInfo()
        info.groupContext.epoch += 1
        let identity = ExternalJoinIdentity(credential: .basic(identity: [3]), signatureKeys: suite.signature.generateKeyPair())
        #expect(throws: MLSWelcomeError.invalidGroupInfoSignature) {
            try GroupState.joinExternally(groupInfo: info, identity: identity, configuration: Self.configuration)
        }
    }

    @Test func externalCommitForStaleEpochIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        var (alice, _) = try twoMemberGroup(suite)
        let staleInfo = try alice.groupInfo()
        alice = try alice.commit().newState
        let identity = ExternalJoinIdentity(credential: .basic(identity: [3]), signatureKeys: suite.signature.generateKeyPair())
        let (message, _) = try GroupState.joinExternally(groupInfo: staleInfo, identity: identity, configuration: Self.configuration)
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(message) }
    }
}
