import KithMLS
import KithMLSConformance
import Testing

@Suite struct PastEpochTests {
    private func pair(keeping: Int?) throws -> (GroupState, GroupState) {
        let configuration = keeping.map { GroupConfiguration(clock: { nil }, pastEpochsForApplicationMessages: $0) } ?? GroupConfiguration(clock: { nil })
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

    @Test func zeroRetentionErasesAtOnce() throws {
        var (alice, bob) = try pair(keeping: 0)
        let late = try bob.encryptApplication([7])
        alice = try alice.commit().newState
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try alice.handle(late) }
    }

    @Test func defaultKeepsThreePastEpochsAndErasesOlderOnes() throws {
        #expect(GroupConfiguration(clock: { nil }).pastEpochsForApplicationMessages == 3)
        var (alice, bob) = try pair(keeping: nil)
        // One late message from each of epochs 1...4, all delivered once Alice is in epoch 5.
        var late: [MLSMessage] = []
        for _ in 0..<4 {
            late.append(try bob.encryptApplication([UInt8(bob.epoch)]))
            let commit = try alice.commit()
            alice = commit.newState
            _ = try bob.handle(commit.message)
        }
        #expect(alice.epoch == 5)
        #expect(throws: MLSGroupError.wrongEpoch(expected: 5, actual: 1)) { try alice.handle(late[0]) }
        for message in late.dropFirst() {
            guard case .privateMessage(let encrypted) = message.body else { Issue.record("expected a PrivateMessage"); continue }
            #expect(try alice.handle(message) == .application(data: [UInt8(encrypted.epoch)], sender: bob.ownLeaf))
        }
    }
}
