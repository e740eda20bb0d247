import KithMLS
import Testing

@Suite struct PastEpochTests {
    private func pair(keeping: Int) throws -> (GroupState, GroupState) {
        let configuration = GroupConfiguration(clock: { nil }, pastEpochsForApplicationMessages: keeping)
        let suite = try CipherSuite(rawValue: 3)
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: [4], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        let bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: configuration)
        return (setup.newState, bobState)
    }

    @Test func lateApplicationMessageIsDecryptedWithinTheWindow() throws {
        var (alice, bob) = try pair(keeping: 2)
        let late = try bob.encryptApplication([7])
        let lateCommit = try bob.commit(wireFormat: .privateMessage)
        alice = try alice.commit().newState
        #expect(try alice.handle(late) == .application(data: [7], sender: bob.ownLeaf))
        // Handshake messages of a past epoch are never accepted.
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(lateCommit.message) }
        // Replays fail: the key was consumed.
        #expect(throws: (any Error).self) { try alice.handle(late) }
    }

    @Test func messagesOlderThanTheWindowAreRejected() throws {
        var (alice, bob) = try pair(keeping: 1)
        let late = try bob.encryptApplication([7])
        alice = try alice.commit().newState
        alice = try alice.commit().newState
        #expect(throws: MLSGroupError.wrongEpoch(expected: 3, actual: 1)) { try alice.handle(late) }
    }

    @Test func noRetentionByDefault() throws {
        var (alice, bob) = try pair(keeping: 0)
        let late = try bob.encryptApplication([7])
        alice = try alice.commit().newState
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(late) }
    }
}
