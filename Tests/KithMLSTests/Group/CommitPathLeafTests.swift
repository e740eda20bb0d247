@testable import KithMLS
import KithMLSConformance
import Testing

/// The new leaf of a received UpdatePath is validated like any leaf (RFC 9420 §7.3, §12.4.2): unique keys and capabilities.
@Suite struct CommitPathLeafTests {
    /// Bob's view of a two-member suite-1 group, and Alice's leaf index and leaf.
    private func bobsView() throws -> (bob: GroupState, aliceLeaf: LeafIndex, alice: LeafNode) {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let bob = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                          lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: [3], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        let bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets, configuration: configuration)
        return (bobState, LeafIndex(0), try #require(bobState.tree.leaf(LeafIndex(0))))
    }

    @Test func validLeafPasses() throws {
        let (bob, index, leaf) = try bobsView()
        try bob.validateCommitPathLeaf(leaf, at: index, in: bob.tree, extensions: bob.context.extensions)
    }

    @Test func leafReusingAnotherMembersKeyIsRejected() throws {
        let (bob, index, leaf) = try bobsView()
        var copy = leaf
        copy.encryptionKey = try #require(bob.tree.leaf(bob.ownLeaf)).encryptionKey
        #expect(throws: MLSTreeError.duplicateKey("encryption key of leaf 1")) {
            try bob.validateCommitPathLeaf(copy, at: index, in: bob.tree, extensions: bob.context.extensions)
        }
        // An external joiner's leaf must not reuse any member's keys, its "own" leaf included.
        #expect(throws: MLSTreeError.duplicateKey("encryption key of leaf 0")) {
            try bob.validateCommitPathLeaf(leaf, at: nil, in: bob.tree, extensions: bob.context.extensions)
        }
    }

    /// Regression: RFC 9420 does not require `capabilities.cipher_suites` to list the group's suite (nor `versions` to
    /// list mls10); conformant peers omit them (see ``CapabilityRules``).
    @Test func leafWithoutTheGroupSuiteOrVersionIsAccepted() throws {
        let (bob, index, leaf) = try bobsView()
        var copy = leaf
        copy.capabilities.cipherSuites = [.x25519ChaChaSHA256Ed25519]
        copy.capabilities.versions = []
        try bob.validateCommitPathLeaf(copy, at: index, in: bob.tree, extensions: bob.context.extensions)
    }

    @Test func leafUsingAnUnlistedExtensionIsRejected() throws {
        let (bob, index, leaf) = try bobsView()
        var copy = leaf
        copy.extensions = [Extension(type: ExtensionType(rawValue: 0xF0B2), data: [1])]
        #expect(throws: MLSGroupError.unsupportedCapability("leaf uses extension \(0xF0B2) it does not list")) {
            try bob.validateCommitPathLeaf(copy, at: index, in: bob.tree, extensions: bob.context.extensions)
        }
    }

    @Test func leafWhoseCredentialTypeOthersDoNotSupportIsRejected() throws {
        let (bob, index, leaf) = try bobsView()
        var copy = leaf
        copy.capabilities.credentials = [.x509]
        #expect(throws: MLSGroupError.self) {
            try bob.validateCommitPathLeaf(copy, at: index, in: bob.tree, extensions: bob.context.extensions)
        }
    }

    @Test func leafMissingARequiredExtensionIsRejected() throws {
        let (bob, index, leaf) = try bobsView()
        let required = RequiredCapabilities(extensionTypes: [ExtensionType(rawValue: 0xF0A1)], proposalTypes: [], credentialTypes: [])
        #expect(throws: MLSGroupError.unsupportedCapability("required extension \(0xF0A1) not supported")) {
            try bob.validateCommitPathLeaf(leaf, at: index, in: bob.tree, extensions: [required.asExtension])
        }
        var copy = leaf
        copy.capabilities.extensions = [ExtensionType(rawValue: 0xF0A1)]
        try bob.validateCommitPathLeaf(copy, at: index, in: bob.tree, extensions: [required.asExtension])
    }
}
