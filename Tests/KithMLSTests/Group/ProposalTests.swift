import KithMLS
import KithMLSConformance
import Testing

@Suite struct ProposalTests {
    static let configuration = GroupConfiguration(clock: { 1_700_000_000 })

    private func member(_ suite: CipherSuite, _ id: UInt8) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        let capabilities = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [ExtensionType(rawValue: 0xFF00)],
                                        proposals: [], credentials: [.basic])
        return try KeyPackage.generate(suite: suite, credential: .basic(identity: [id]), signatureKeys: suite.signature.generateKeyPair(),
                                       lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: capabilities)
    }

    /// Three members; Bob proposes an Update and an Add, Carol proposes a GroupContextExtensions, Alice commits them by reference.
    @Test(arguments: [WireFormat.publicMessage, .privateMessage])
    func proposalsCommittedByReference(wireFormat: WireFormat) throws {
        let suite = try CipherSuite(rawValue: 3)
        let alice = try member(suite, 1), bob = try member(suite, 2), carol = try member(suite, 3), dave = try member(suite, 4)
        var aliceState = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage, carol.keyPackage])
        aliceState = setup.newState
        let welcome = try #require(setup.welcome)
        var bobState = try GroupState(welcome: welcome, keyPackage: bob.keyPackage, secrets: bob.secrets, configuration: Self.configuration)
        var carolState = try GroupState(welcome: welcome, keyPackage: carol.keyPackage, secrets: carol.secrets, configuration: Self.configuration)

        let update = try bobState.proposeUpdate(wireFormat: wireFormat)
        let addDave = try bobState.propose(.add(dave.keyPackage), wireFormat: wireFormat)
        let extensions = try carolState.propose(.groupContextExtensions([Extension(type: ExtensionType(rawValue: 0xFF00), data: [1, 2])]),
                                                wireFormat: wireFormat)
        for message in [update, addDave, extensions] {
            if case .proposal = try aliceState.handle(message) {} else { Issue.record("expected a proposal") }
        }
        for message in [update, addDave] { _ = try carolState.handle(message) }
        for message in [extensions] { _ = try bobState.handle(message) }
        #expect(aliceState.pendingProposals.count == 3)

        let pending = try aliceState.commit(wireFormat: wireFormat)
        aliceState = pending.newState
        #expect(try bobState.handle(pending.message) == .newEpoch(2))
        #expect(try carolState.handle(pending.message) == .newEpoch(2))
        let daveState = try GroupState(welcome: try #require(pending.welcome), keyPackage: dave.keyPackage, secrets: dave.secrets,
                                       configuration: Self.configuration)
        let authenticators = Set([aliceState, bobState, carolState, daveState].map(\.epochAuthenticator))
        #expect(authenticators.count == 1)
        #expect(aliceState.context.extensions.first?.data == [1, 2])
        #expect(bobState.pendingProposals.isEmpty)
        // Bob's updated leaf key is usable: he can decrypt a new path commit from Dave.
        var dave2 = daveState
        let next = try dave2.commit()
        #expect(try bobState.handle(next.message) == .newEpoch(3))
    }

    @Test func commitReferencingUnknownProposalIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try member(suite, 1), bob = try member(suite, 2)
        var aliceState = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let setup = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = setup.newState
        var bobState = try GroupState(welcome: try #require(setup.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets,
                                      configuration: Self.configuration)
        // Alice proposes a GroupContextExtensions that Bob never receives, then commits it by reference.
        _ = try aliceState.propose(.groupContextExtensions([]))
        let pending = try aliceState.commit()
        #expect(throws: MLSGroupError.unknownProposalReference) { try bobState.handle(pending.message) }
        #expect(bobState.epoch == 1)
    }

    @Test func proposingUpdateThroughProposeIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try member(suite, 1)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        #expect(throws: MLSGroupError.self) { try state.propose(.update(alice.keyPackage.leafNode)) }
        #expect(throws: MLSGroupError.self) { try state.propose(.remove(LeafIndex(3))) }
        #expect(throws: MLSGroupError.unknownPSK("external 01")) {
            try state.propose(.preSharedKey(PreSharedKeyID(kind: .external(id: [1]), nonce: [0])))
        }
    }

    @Test func extensionsUnsupportedByAMemberAreRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try member(suite, 1)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        _ = try state.propose(.groupContextExtensions([Extension(type: ExtensionType(rawValue: 0xFF01), data: [])]))
        #expect(throws: MLSGroupError.unsupportedCapability("member does not support GroupContext extension 65281")) { try state.commit() }
        #expect(state.epoch == 0)
    }

    @Test func requiredCapabilitiesAreEnforcedOnAdd() throws {
        let suite = try CipherSuite(rawValue: 1)
        let alice = try member(suite, 1)
        let required = RequiredCapabilities(extensionTypes: [ExtensionType(rawValue: 0xFF00)], proposalTypes: [ProposalType(rawValue: 0x0A0A)],
                                            credentialTypes: [.basic])
        var strict = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: [required.asExtension],
                                    configuration: Self.configuration)
        let bob = try member(suite, 2)
        #expect(throws: MLSGroupError.unsupportedCapability("required proposal 2570 not supported")) { try strict.commit(adding: [bob.keyPackage]) }
        let plain = try KeyPackage.generate(suite: suite, credential: .basic(identity: [3]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let relaxed = RequiredCapabilities(extensionTypes: [ExtensionType(rawValue: 0xFF00)], proposalTypes: [], credentialTypes: [.basic])
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: [relaxed.asExtension],
                                   configuration: Self.configuration)
        #expect(throws: MLSGroupError.unsupportedCapability("required extension 65280 not supported")) {
            try state.commit(adding: [plain.keyPackage])
        }
        _ = try state.commit(adding: [try member(suite, 4).keyPackage])
    }
}
