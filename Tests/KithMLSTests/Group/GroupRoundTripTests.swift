import KithMLS
import KithMLSConformance
import Testing

/// Active use: create a group, add and remove members, exchange messages, across the supported suites.
@Suite struct GroupRoundTripTests {
    struct Member {
        let keyPackage: KeyPackage
        let secrets: KeyPackageSecrets

        init(_ name: String, suite: CipherSuite) throws {
            let signature = suite.signature.generateKeyPair()
            (keyPackage, secrets) = try KeyPackage.generate(suite: suite, credential: .basic(identity: Array(name.utf8)), signatureKeys: signature,
                                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        }
    }

    static let configuration = GroupConfiguration(clock: { 1_700_000_000 })

    /// Creating and receiving a commit apply proposals through one function; a member cannot
    /// commit its own removal (it would leave a commit nobody can follow), and the state is unchanged.
    @Test func aMemberCannotCommitItsOwnRemoval() throws {
        let suite = try CipherSuite(.x25519AES128SHA256Ed25519)
        let alice = try Member("alice", suite: suite)
        let bob = try Member("bob", suite: suite)
        var aliceState = try GroupState(creating: [9], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        aliceState = try aliceState.commit(adding: [bob.keyPackage]).newState
        let before = aliceState.epochAuthenticator
        #expect(throws: MLSGroupError.self) { try aliceState.commit(removing: [aliceState.ownLeaf]) }
        #expect(aliceState.epochAuthenticator == before)
    }

    @Test(arguments: CipherSuiteID.supported)
    func createAddMessageRemove(id: CipherSuiteID) throws {
        let suite = try CipherSuite(id)
        let alice = try Member("alice", suite: suite)
        let bob = try Member("bob", suite: suite)
        let carol = try Member("carol", suite: suite)
        var aliceState = try GroupState(creating: [7, 7], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)

        // Alice adds Bob; Bob joins from the Welcome with the tree inside it.
        let addBob = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = addBob.newState
        let bobWelcome = try #require(addBob.welcome)
        var bobState = try GroupState(welcome: bobWelcome, keyPackage: bob.keyPackage, secrets: bob.secrets, configuration: Self.configuration)
        #expect(bobState.epochAuthenticator == aliceState.epochAuthenticator)
        #expect(bobState.ownLeaf == LeafIndex(1))

        // Bob adds Carol with a PrivateMessage commit; Alice processes it; Carol joins with the tree out of band.
        let addCarol = try bobState.commit(adding: [carol.keyPackage], wireFormat: .privateMessage, ratchetTreeInWelcome: false)
        bobState = addCarol.newState
        #expect(try aliceState.handle(addCarol.message) == .newEpoch(2))
        var carolState = try GroupState(welcome: try #require(addCarol.welcome), keyPackage: carol.keyPackage, secrets: carol.secrets,
                                        ratchetTree: bobState.tree, configuration: Self.configuration)
        #expect(Set([aliceState.epochAuthenticator, bobState.epochAuthenticator, carolState.epochAuthenticator]).count == 1)

        // Application messages in both directions.
        let hello = try carolState.encryptApplication(Array("hi".utf8), paddingLength: 5)
        #expect(try aliceState.handle(hello) == .application(data: Array("hi".utf8), sender: carolState.ownLeaf))
        #expect(try bobState.handle(hello) == .application(data: Array("hi".utf8), sender: carolState.ownLeaf))
        #expect(try aliceState.export(label: "x", context: [], length: 16) == carolState.export(label: "x", context: [], length: 16))

        // Alice removes Bob; Carol follows; Bob learns he was removed and his state stays as it was.
        let removeBob = try aliceState.commit(removing: [LeafIndex(1)])
        aliceState = removeBob.newState
        #expect(try carolState.handle(removeBob.message) == .newEpoch(3))
        let bobEpoch = bobState.epoch
        #expect(try bobState.handle(removeBob.message) == .removedFromGroup)
        #expect(bobState.epoch == bobEpoch)
        #expect(carolState.epochAuthenticator == aliceState.epochAuthenticator)
        try carolState.tree.validate(suite: suite, groupID: [7, 7])
    }

    @Test func failedCommitLeavesStateUnchanged() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try Member("alice", suite: suite)
        let bob = try Member("bob", suite: suite)
        var aliceState = try GroupState(creating: [1], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let addBob = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = addBob.newState
        var bobState = try GroupState(welcome: try #require(addBob.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)
        let before = (bobState.epoch, bobState.tree, bobState.epochAuthenticator, bobState.privateKeys)

        let update = try aliceState.commit()
        guard case .publicMessage(var tampered) = update.message.body else { Issue.record("expected a PublicMessage"); return }
        tampered.auth.confirmationTag = [UInt8](repeating: 0, count: 32)
        tampered.membershipTag = PublicMessage.membershipTag(suite: suite, membershipKey: aliceState.secrets.membershipKey,
                                                             content: tampered.authenticatedContent, context: aliceState.context)
        #expect(throws: MLSGroupError.confirmationTagMismatch) { try bobState.handle(MLSMessage(body: .publicMessage(tampered))) }
        #expect(bobState.epoch == before.0 && bobState.tree == before.1 && bobState.epochAuthenticator == before.2 && bobState.privateKeys == before.3)

        // The genuine commit still applies afterwards.
        #expect(try bobState.handle(update.message) == .newEpoch(2))
        #expect(bobState.epochAuthenticator == update.newState.epochAuthenticator)
    }

    @Test func messagesForOtherEpochsAreRejected() throws {
        let suite = try CipherSuite(rawValue: 3)
        let alice = try Member("alice", suite: suite)
        let bob = try Member("bob", suite: suite)
        var aliceState = try GroupState(creating: [2], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let addBob = try aliceState.commit(adding: [bob.keyPackage])
        let oldMessage = try aliceState.encryptApplication([1])
        aliceState = addBob.newState
        var bobState = try GroupState(welcome: try #require(addBob.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)
        #expect(throws: MLSGroupError.wrongEpoch(expected: 1, actual: 0)) { try bobState.handle(oldMessage) }
        // A commit cannot be processed twice.
        let update = try aliceState.commit()
        _ = try bobState.handle(update.message)
        #expect(throws: MLSGroupError.wrongEpoch(expected: 2, actual: 1)) { try bobState.handle(update.message) }
    }

    @Test func expiredKeyPackageIsRejectedWhenClockIsSet() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try Member("alice", suite: suite)
        let signature = suite.signature.generateKeyPair()
        let expired = try KeyPackage.generate(suite: suite, credential: .basic(identity: [9]), signatureKeys: signature,
                                              lifetime: Lifetime(notBefore: 0, notAfter: 10))
        var aliceState = try GroupState(creating: [3], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        #expect(throws: MLSGroupError.invalidKeyPackage("lifetime does not cover the current time")) {
            try aliceState.commit(adding: [expired.keyPackage])
        }
    }

    @Test func keyPackageWithBadSignatureIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try Member("alice", suite: suite)
        var bob = try Member("bob", suite: suite).keyPackage
        bob.signature[0] ^= 1
        var aliceState = try GroupState(creating: [4], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        #expect(throws: MLSGroupError.invalidKeyPackage("signature does not verify")) { try aliceState.commit(adding: [bob]) }
    }

    @Test func committerCannotRemoveItself() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try Member("alice", suite: suite)
        var aliceState = try GroupState(creating: [5], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        #expect(throws: MLSGroupError.invalidProposalList("committer removes itself")) { try aliceState.commit(removing: [LeafIndex(0)]) }
    }
}
