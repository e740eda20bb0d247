@testable import KithMLS
import Testing

/// Exactly the capability checks of RFC 9420 §7.2, §7.3, §10.1, §12.1 and §13.4 (table in ``CapabilityRules``): leaves of
/// conformant peers that do not list the group's cipher suite are accepted, the required checks still reject.
@Suite struct CapabilityRulesTests {
    static let configuration = GroupConfiguration(clock: { nil })
    static let custom = ExtensionType(rawValue: 0xF0A0)

    /// A KeyPackage of the group's suite (its `cipher_suite` field) whose leaf has the given capabilities.
    private static func keyPackage(_ name: String, suite: CipherSuite, credential: Credential? = nil, cipherSuites: [CipherSuiteID]? = nil,
                                   versions: [ProtocolVersion] = [.mls10], extensions: [ExtensionType] = [],
                                   credentials: [CredentialType] = [.basic], leafExtensions: [Extension] = [])
        throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        let capabilities = Capabilities(versions: versions, cipherSuites: cipherSuites ?? [suite.id], extensions: extensions, proposals: [],
                                        credentials: credentials)
        return try KeyPackage.generate(suite: suite, credential: credential ?? .basic(identity: Array(name.utf8)),
                                       signatureKeys: suite.signature.generateKeyPair(), lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                       capabilities: capabilities, leafExtensions: leafExtensions)
    }

    /// Alice (leaf 0) and Bob (leaf 1) of a suite-1 group with `extensions`, both supporting ``custom``.
    private static func pair(extensions: [Extension] = []) throws -> (alice: GroupState, bob: GroupState, suite: CipherSuite) {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try keyPackage("alice", suite: suite, extensions: [custom])
        let bob = try keyPackage("bob", suite: suite, extensions: [custom])
        var aliceState = try GroupState(creating: [6, 6], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: extensions,
                                        configuration: configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        let bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: configuration)
        return (setup.newState, bobState, suite)
    }

    // MARK: Accepted (no section requires these)

    @Test func addWhoseLeafOmitsTheGroupSuiteIsAccepted() throws {
        var (alice, bob, suite) = try Self.pair()
        // The KeyPackage's own cipher_suite field is the group's suite (§10.1); only the leaf's capabilities omit it.
        let carol = try Self.keyPackage("carol", suite: suite, cipherSuites: [.x25519ChaChaSHA256Ed25519], extensions: [Self.custom])
        #expect(carol.keyPackage.cipherSuite == suite.id)
        let pending = try alice.commit(adding: [carol.keyPackage])
        #expect(try bob.handle(pending.message) == .newEpoch(2))
        let carolState = try GroupState(welcome: try #require(pending.welcome), keyPackage: carol.keyPackage, secrets: carol.secrets,
                                        configuration: Self.configuration)
        #expect(carolState.epochAuthenticator == bob.epochAuthenticator)
    }

    @Test func addWhoseLeafListsNoVersionIsAccepted() throws {
        var (alice, bob, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite, versions: [], extensions: [Self.custom])
        #expect(try bob.handle(alice.commit(adding: [carol.keyPackage]).message) == .newEpoch(2))
    }

    @Test func externalAddWhoseLeafOmitsTheGroupSuiteIsAccepted() throws {
        let suite = try CipherSuite(rawValue: 1)
        let server = suite.signature.generateKeyPair()
        let senders = ExternalSender.extensionFor([ExternalSender(signatureKey: server.publicKey, credential: .basic(identity: Array("ds".utf8)))])
        var (alice, bob, _) = try Self.pair(extensions: [senders])
        let carol = try Self.keyPackage("carol", suite: suite, cipherSuites: [.x25519ChaChaSHA256Ed25519], extensions: [Self.custom])
        let proposal = try ExternalSender.propose(.add(carol.keyPackage), groupID: [6, 6], epoch: alice.epoch, senderIndex: 0, suite: suite,
                                                  signaturePrivateKey: server.privateKey)
        for index in 0..<2 {
            var state = index == 0 ? alice : bob
            if case .proposal = try state.handle(proposal) {} else { Issue.record("the external Add was not stored") }
            if index == 0 { alice = state } else { bob = state }
        }
        let pending = try alice.commit()
        #expect(try bob.handle(pending.message) == .newEpoch(2))
        #expect(bob.members.count == 3)
        _ = try GroupState(welcome: try #require(pending.welcome), keyPackage: carol.keyPackage, secrets: carol.secrets, configuration: Self.configuration)
    }

    @Test func memberWhoseLeafOmitsTheGroupSuiteUpdatesAndCommits() throws {
        var (alice, _, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite, cipherSuites: [.x25519ChaChaSHA256Ed25519], extensions: [Self.custom])
        let added = try alice.commit(adding: [carol.keyPackage])
        alice = added.newState
        var carolState = try GroupState(welcome: try #require(added.welcome), keyPackage: carol.keyPackage, secrets: carol.secrets,
                                        configuration: Self.configuration)
        // Carol's Update leaf and her commit's path leaf keep her capabilities, which list suite 3 only.
        let update = try carolState.proposeUpdate()
        if case .proposal = try alice.handle(update) {} else { Issue.record("the Update was not stored") }
        let updateCommit = try alice.commit()
        alice = updateCommit.newState
        #expect(try carolState.handle(updateCommit.message) == .newEpoch(3))
        let pathCommit = try carolState.commit()
        #expect(try alice.handle(pathCommit.message) == .newEpoch(4))
        #expect(try #require(alice.tree.leaf(carolState.ownLeaf)).capabilities.cipherSuites == [.x25519ChaChaSHA256Ed25519])
    }

    @Test func removingTheOnlyMemberWithoutAnExtensionLetsAGroupContextExtensionsProposalThrough() throws {
        // §12.1.7: members removed by the same commit are excluded.
        var (alice, bob, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite)
        let added = try alice.commit(adding: [carol.keyPackage])
        alice = added.newState
        _ = try bob.handle(added.message)
        let extensions = [Extension(type: Self.custom, data: [1])]
        #expect(throws: MLSGroupError.unsupportedCapability("member does not support GroupContext extension \(0xF0A0)")) {
            try alice.commit(proposals: [.groupContextExtensions(extensions)])
        }
        let pending = try alice.commit(proposals: [.remove(LeafIndex(2)), .groupContextExtensions(extensions)])
        #expect(try bob.handle(pending.message) == .newEpoch(3))
        #expect(bob.groupContextExtensions == extensions)
    }

    // MARK: Still rejected (required by a section)

    @Test func requiredExtensionNotSupportedIsRejected() throws {
        // §7.3, §11.1.
        let required = RequiredCapabilities(extensionTypes: [Self.custom], proposalTypes: [], credentialTypes: []).asExtension
        var (alice, _, suite) = try Self.pair(extensions: [required])
        let carol = try Self.keyPackage("carol", suite: suite)
        #expect(throws: MLSGroupError.unsupportedCapability("required extension \(0xF0A0) not supported")) { try alice.commit(adding: [carol.keyPackage]) }
    }

    @Test func groupContextExtensionNotSupportedByTheNewMemberIsRejected() throws {
        // §13.4.
        var (alice, _, suite) = try Self.pair(extensions: [Extension(type: Self.custom, data: [])])
        let carol = try Self.keyPackage("carol", suite: suite)
        #expect(throws: MLSGroupError.unsupportedCapability("member does not support GroupContext extension \(0xF0A0)")) {
            try alice.commit(adding: [carol.keyPackage])
        }
    }

    @Test func groupContextExtensionsNotSupportedByAMemberAddedInTheSameCommitAreRejected() throws {
        // §12.1.7: members added by the same commit are included.
        var (alice, _, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite)
        #expect(throws: MLSGroupError.unsupportedCapability("member does not support GroupContext extension \(0xF0A0)")) {
            try alice.commit(proposals: [.add(carol.keyPackage), .groupContextExtensions([Extension(type: Self.custom, data: [])])])
        }
    }

    @Test func credentialTypeNotSupportedByAllMembersIsRejected() throws {
        // §7.3, §13.3.
        var (alice, _, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite, credential: .x509(certificates: [[1]]), extensions: [Self.custom],
                                        credentials: [.basic, .x509])
        #expect(throws: MLSGroupError.unsupportedCapability("credential types not mutually supported with leaf 0")) {
            try alice.commit(adding: [carol.keyPackage])
        }
    }

    @Test func leafNotListingItsOwnCredentialTypeIsRejected() throws {
        // §7.2.
        var (alice, _, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite, extensions: [Self.custom], credentials: [.x509])
        #expect(throws: MLSGroupError.unsupportedCapability("leaf does not list its own credential type")) { try alice.commit(adding: [carol.keyPackage]) }
    }

    @Test func leafUsingAnExtensionItDoesNotListIsRejected() throws {
        // §7.2, §7.3.
        var (alice, _, suite) = try Self.pair()
        let carol = try Self.keyPackage("carol", suite: suite, extensions: [Self.custom],
                                        leafExtensions: [Extension(type: ExtensionType(rawValue: 0xF0A2), data: [])])
        #expect(throws: MLSGroupError.unsupportedCapability("leaf uses extension \(0xF0A2) it does not list")) { try alice.commit(adding: [carol.keyPackage]) }
        // A default extension type (application_id, 1) needs no listing.
        let dave = try Self.keyPackage("dave", suite: suite, extensions: [Self.custom], leafExtensions: [Extension(type: ExtensionType(rawValue: 1), data: [7])])
        _ = try alice.commit(adding: [dave.keyPackage])
    }

    @Test func keyPackageOfAnotherSuiteOrVersionIsRejected() throws {
        // §10.1: the KeyPackage's own fields must match the GroupContext.
        var (alice, _, suite) = try Self.pair()
        var other = try Self.keyPackage("carol", suite: try CipherSuite(rawValue: 3), extensions: [Self.custom])
        #expect(throws: MLSGroupError.invalidKeyPackage("cipher suite differs from the group's")) { try alice.commit(adding: [other.keyPackage]) }
        other = try Self.keyPackage("dave", suite: suite, extensions: [Self.custom])
        other.keyPackage.version = ProtocolVersion(rawValue: 2)
        #expect(throws: MLSGroupError.invalidKeyPackage("protocol version differs")) { try alice.commit(adding: [other.keyPackage]) }
    }

    @Test func joinerNotSupportingAGroupContextExtensionRefusesTheWelcome() throws {
        // §13.4: checked on the joiner's own leaf capabilities before anything else of the GroupInfo.
        let capabilities = Capabilities(versions: [.mls10], cipherSuites: [], extensions: [], proposals: [], credentials: [.basic])
        #expect(throws: MLSGroupError.unsupportedCapability("this client does not support GroupContext extension \(0xF0A0)")) {
            try CapabilityRules.checkJoiner(capabilities, extensions: [Extension(type: Self.custom, data: [])])
        }
        try CapabilityRules.checkJoiner(capabilities, extensions: [ExternalSender.extensionFor([])])
    }
}
