import KithMLS
import Testing

/// ``GroupState/commit(proposals:includePending:includePath:wireFormat:authenticatedData:ratchetTreeInWelcome:)`` commits
/// proposals by value next to the pending ones, and ``GroupState/members`` shows who is in the group.
@Suite struct CommitByValueTests {
    static let configuration = GroupConfiguration(clock: { nil })
    static let appExtension = ExtensionType(rawValue: 0xF0A0)

    /// A member whose leaf supports the application's GroupContext extension type.
    private static func keyPackage(_ name: String, suite: CipherSuite) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        let capabilities = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [appExtension], proposals: [], credentials: [.basic])
        return try KeyPackage.generate(suite: suite, credential: .basic(identity: Array(name.utf8)), signatureKeys: suite.signature.generateKeyPair(),
                                       lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: capabilities)
    }

    /// Alice (leaf 0), Bob (1) and Carol (2) in epoch 1.
    private static func group(suite: CipherSuite) throws -> [GroupState] {
        let alice = try keyPackage("alice", suite: suite)
        let others = try ["bob", "carol"].map { try keyPackage($0, suite: suite) }
        var aliceState = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let setup = try aliceState.commit(adding: others.map(\.keyPackage))
        let welcome = try #require(setup.welcome)
        return try [setup.newState] + others.map {
            try GroupState(welcome: welcome, keyPackage: $0.keyPackage, secrets: $0.secrets, configuration: configuration)
        }
    }

    @Test func groupContextExtensionsByValueAreCommittedWithPendingProposals() throws {
        let suite = try CipherSuite(rawValue: 1)
        var states = try Self.group(suite: suite)
        let dave = try Self.keyPackage("dave", suite: suite)
        let addDave = try states[1].propose(.add(dave.keyPackage))
        for index in [0, 2] { _ = try states[index].handle(addDave) }

        let extensions = [Extension(type: Self.appExtension, data: [1, 2, 3])]
        let pending = try states[0].commit(proposals: [.groupContextExtensions(extensions)])
        guard case .publicMessage(let message) = pending.message.body, case .commit(let commit) = message.content.body else {
            Issue.record("expected a PublicMessage commit")
            return
        }
        #expect(commit.proposals.count == 2)
        #expect(commit.proposals.last == .proposal(.groupContextExtensions(extensions)))
        if case .reference = commit.proposals.first {} else { Issue.record("the pending Add is not included by reference") }

        states[0] = pending.newState
        for index in [1, 2] { #expect(try states[index].handle(pending.message) == .newEpoch(2)) }
        states.append(try GroupState(welcome: try #require(pending.welcome), keyPackage: dave.keyPackage, secrets: dave.secrets,
                                     configuration: Self.configuration))
        for state in states {
            #expect(state.groupContextExtensions == extensions && state.context.extensions == extensions)
            #expect(state.members == states[0].members)
        }
        let members = states[0].members
        #expect(members.map(\.leaf) == (0...3).map { LeafIndex($0) })
        #expect(members.map(\.credential) == ["alice", "bob", "carol", "dave"].map { .basic(identity: Array($0.utf8)) })
        #expect(members.last == GroupMember(leaf: LeafIndex(3), credential: .basic(identity: Array("dave".utf8)),
                                            signatureKey: dave.keyPackage.leafNode.signatureKey))
        #expect(states[0].member(at: LeafIndex(3)) == members.last)
        #expect(states[0].member(at: LeafIndex(4)) == nil)
    }

    @Test func pendingProposalsStayOutWhenNotIncluded() throws {
        var states = try Self.group(suite: try CipherSuite(rawValue: 3))
        let removeCarol = try states[1].propose(.remove(LeafIndex(2)))
        _ = try states[0].handle(removeCarol)
        let extensions = [Extension(type: Self.appExtension, data: [9])]
        let pending = try states[0].commit(proposals: [.groupContextExtensions(extensions)], includePending: false, wireFormat: .privateMessage)
        #expect(try states[2].handle(pending.message) == .newEpoch(2))
        #expect(states[2].groupContextExtensions == extensions)
        #expect(pending.newState.members.map(\.leaf) == [LeafIndex(0), LeafIndex(1), LeafIndex(2)])
    }

    @Test func removedMembersLeaveTheMemberList() throws {
        var states = try Self.group(suite: try CipherSuite(rawValue: 1))
        let pending = try states[0].commit(proposals: [.remove(LeafIndex(1))])
        #expect(try states[2].handle(pending.message) == .newEpoch(2))
        #expect(states[2].members.map(\.leaf) == [LeafIndex(0), LeafIndex(2)])
        #expect(states[2].member(at: LeafIndex(1)) == nil)
    }

    @Test func invalidProposalsByValueAreRefusedAndLeaveTheStateUnchanged() throws {
        var states = try Self.group(suite: try CipherSuite(rawValue: 1))
        let unsupported = Extension(type: ExtensionType(rawValue: 0xF0A1), data: [])
        #expect(throws: MLSGroupError.unsupportedCapability("member does not support GroupContext extension \(0xF0A1)")) {
            try states[0].commit(proposals: [.groupContextExtensions([unsupported])])
        }
        let ownLeaf = try #require(states[0].tree.leaf(states[0].ownLeaf))
        #expect(throws: MLSGroupError.invalidProposalList("committer included its own Update")) { try states[0].commit(proposals: [.update(ownLeaf)]) }
        #expect(throws: MLSGroupError.invalidProposalList("ExternalInit in a member commit")) {
            try states[0].commit(proposals: [.externalInit(kemOutput: [1])])
        }
        #expect(states[0].epoch == 1)
        // The refused commits left nothing behind: the next one is processed by the others.
        let pending = try states[0].commit(proposals: [])
        #expect(try states[1].handle(pending.message) == .newEpoch(2))
    }
}
