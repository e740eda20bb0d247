import KithMLS
import KithMLSConformance
import Testing

/// Subgroup branching (RFC 9420 §11.3): a new group linked by a `branch` resumption PSK, limited to members of the group.
@Suite struct BranchTests {
    private static let configuration = GroupConfiguration(clock: { nil })

    private struct Person {
        let name: [UInt8]
        let signatureKeys: KeyPair

        init(_ name: String, suite: CipherSuite) {
            self.name = Array(name.utf8)
            signatureKeys = suite.signature.generateKeyPair()
        }

        func keyPackage(_ suite: CipherSuite) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
            try KeyPackage.generate(suite: suite, credential: .basic(identity: name), signatureKeys: signatureKeys,
                                    lifetime: Lifetime(notBefore: 0, notAfter: .max))
        }
    }

    /// Alice, Bob and Carol in one group at epoch 1.
    private func group(_ suite: CipherSuite) throws -> (people: [Person], states: [GroupState]) {
        let people = ["alice", "bob", "carol"].map { Person($0, suite: suite) }
        let packages = try people.map { try $0.keyPackage(suite) }
        var alice = try GroupState(creating: [0x10], keyPackage: packages[0].keyPackage, secrets: packages[0].secrets, configuration: Self.configuration)
        let setup = try alice.commit(adding: packages.dropFirst().map(\.keyPackage))
        let welcome = try #require(setup.welcome)
        let others = try packages.dropFirst().map {
            try GroupState(welcome: welcome, keyPackage: $0.keyPackage, secrets: $0.secrets, configuration: Self.configuration)
        }
        return (people, [setup.newState] + others)
    }

    @Test func twoMembersBranchASubgroup() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (people, states) = try group(suite)
        let aliceNew = try people[0].keyPackage(suite)
        let bobNew = try people[1].keyPackage(suite)
        let start = try states[0].branch(groupID: [0x11], keyPackage: aliceNew.keyPackage, secrets: aliceNew.secrets, adding: [bobNew.keyPackage])
        var alice = start.newState
        var bob = try GroupState(welcome: try #require(start.welcome), keyPackage: bobNew.keyPackage, secrets: bobNew.secrets, branchingFrom: states[1])
        #expect(bob.epochAuthenticator == alice.epochAuthenticator)
        #expect(bob.context.groupID == [0x11] && bob.epoch == 1 && bob.tree.occupiedLeaves.count == 2)
        let message = try bob.encryptApplication([1, 2])
        #expect(try alice.handle(message) == .application(data: [1, 2], sender: bob.ownLeaf))
    }

    @Test func outsidersCannotBeBranchedIn() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (people, states) = try group(suite)
        let aliceNew = try people[0].keyPackage(suite)
        let outsider = try Person("mallory", suite: suite).keyPackage(suite)
        #expect(throws: MLSGroupError.invalidKeyPackage("a subgroup member must be a member of the group")) {
            try states[0].branch(groupID: [0x12], keyPackage: aliceNew.keyPackage, secrets: aliceNew.secrets, adding: [outsider.keyPackage])
        }
    }

    @Test func welcomeWithoutTheBranchLinkIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (people, states) = try group(suite)
        let aliceNew = try people[0].keyPackage(suite)
        let bobNew = try people[1].keyPackage(suite)
        var plain = try GroupState(creating: [0x13], keyPackage: aliceNew.keyPackage, secrets: aliceNew.secrets, configuration: Self.configuration)
        let commit = try plain.commit(adding: [bobNew.keyPackage])
        #expect(throws: MLSGroupError.parameterMismatch("the Welcome does not name a branch PSK of the group")) {
            try GroupState(welcome: try #require(commit.welcome), keyPackage: bobNew.keyPackage, secrets: bobNew.secrets, branchingFrom: states[1])
        }
    }
}
