import KithMLS
import KithMLSConformance
import Testing

/// ReInit (RFC 9420 §11.2, §12.1.5): committing and processing the proposal, the closed old group, and the new group
/// started from it with the `reinit` resumption PSK.
@Suite struct ReInitTests {
    private static let configuration = GroupConfiguration(clock: { nil })

    private struct Identity {
        let name: [UInt8]
        let signatureKeys: [UInt16: KeyPair]

        init(_ name: String) throws {
            self.name = Array(name.utf8)
            var keys: [UInt16: KeyPair] = [:]
            for raw: UInt16 in [1, 3] { keys[raw] = try CipherSuite(rawValue: raw).signature.generateKeyPair() }
            signatureKeys = keys
        }

        func keyPackage(suite raw: UInt16) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
            let suite = try CipherSuite(rawValue: raw)
            return try KeyPackage.generate(suite: suite, credential: .basic(identity: name), signatureKeys: try #require(signatureKeys[raw]),
                                           lifetime: Lifetime(notBefore: 0, notAfter: .max))
        }
    }

    /// Alice, Bob and Carol in a suite-1 group at epoch 1.
    private func trio() throws -> (identities: [Identity], states: [GroupState]) {
        let identities = try ["alice", "bob", "carol"].map(Identity.init)
        let packages = try identities.map { try $0.keyPackage(suite: 1) }
        var alice = try GroupState(creating: [0xAA], keyPackage: packages[0].keyPackage, secrets: packages[0].secrets, configuration: Self.configuration)
        let setup = try alice.commit(adding: packages.dropFirst().map(\.keyPackage))
        let welcome = try #require(setup.welcome)
        let others = try packages.dropFirst().map {
            try GroupState(welcome: welcome, keyPackage: $0.keyPackage, secrets: $0.secrets, configuration: Self.configuration)
        }
        return (identities, [setup.newState] + others)
    }

    private let target = ReInit(groupID: [0xBB], version: .mls10, cipherSuite: .x25519ChaChaSHA256Ed25519,
                                extensions: [Extension(type: ExtensionType(rawValue: 0xF0A1), data: Array("metadata".utf8))])

    private var capabilities: Capabilities {
        Capabilities(versions: [.mls10], cipherSuites: [.x25519ChaChaSHA256Ed25519], extensions: [ExtensionType(rawValue: 0xF0A1)], proposals: [],
                     credentials: [.basic])
    }

    private func newKeyPackage(_ identity: Identity) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        let suite = try CipherSuite(rawValue: 3)
        return try KeyPackage.generate(suite: suite, credential: .basic(identity: identity.name), signatureKeys: try #require(identity.signatureKeys[3]),
                                       lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: capabilities)
    }

    @Test(arguments: [WireFormat.publicMessage, .privateMessage])
    func proposedReInitIsCommittedAndTheNewGroupStarts(wireFormat: WireFormat) throws {
        var (identities, states) = try trio()
        // Bob proposes, Alice commits it by reference; everyone ends up in the closed epoch 2.
        let proposal = try states[1].propose(.reinit(target), wireFormat: wireFormat)
        _ = try states[0].handle(proposal)
        _ = try states[2].handle(proposal)
        let commit = try states[0].commit(wireFormat: wireFormat)
        states[0] = commit.newState
        #expect(try states[1].handle(commit.message) == .newEpoch(2))
        #expect(try states[2].handle(commit.message) == .newEpoch(2))
        for state in states {
            #expect(state.reinitialization == target)
            #expect(state.epochAuthenticator == states[0].epochAuthenticator)
        }

        // The closed group sends nothing more.
        #expect(throws: MLSGroupError.groupReinitialized) { try states[1].encryptApplication([1]) }
        #expect(throws: MLSGroupError.groupReinitialized) { try states[1].commit() }
        #expect(throws: MLSGroupError.groupReinitialized) { try states[1].proposeUpdate() }

        // Carol (not the committer) starts the new group and adds the others' new KeyPackages.
        let fresh = try identities.map(newKeyPackage)
        let start = try states[2].reinitialize(keyPackage: fresh[2].keyPackage, secrets: fresh[2].secrets,
                                               adding: [fresh[0].keyPackage, fresh[1].keyPackage])
        var carol = start.newState
        let welcome = try #require(start.welcome)
        var alice = try GroupState(welcome: welcome, keyPackage: fresh[0].keyPackage, secrets: fresh[0].secrets, reinitializing: states[0])
        let bob = try GroupState(welcome: welcome, keyPackage: fresh[1].keyPackage, secrets: fresh[1].secrets, reinitializing: states[1])
        #expect(Set([alice.epochAuthenticator, bob.epochAuthenticator, carol.epochAuthenticator]).count == 1)
        #expect(alice.context.groupID == target.groupID && alice.suite.id == .x25519ChaChaSHA256Ed25519 && alice.epoch == 1)
        #expect(alice.context.extensions == target.extensions)
        let hello = try alice.encryptApplication(Array("new group".utf8))
        #expect(try carol.handle(hello) == .application(data: Array("new group".utf8), sender: alice.ownLeaf))
    }

    @Test func committedInlineReInitClosesTheGroup() throws {
        var (_, states) = try trio()
        let commit = try states[1].commitReInit(target, includePath: true)
        #expect(commit.newState.reinitialization == target)
        #expect(try states[0].handle(commit.message) == .newEpoch(2))
        #expect(states[0].reinitialization == target)
        #expect(states[0].epochAuthenticator == commit.newState.epochAuthenticator)
        // Nobody commits or proposes in the closed group any more.
        var closed = commit.newState
        #expect(throws: MLSGroupError.groupReinitialized) { try closed.commit() }
        #expect(throws: MLSGroupError.groupReinitialized) { try states[0].propose(.remove(LeafIndex(2))) }
    }

    @Test func otherProposalsWinOverAPendingReInit() throws {
        var (_, states) = try trio()
        let proposal = try states[1].propose(.reinit(target))
        _ = try states[0].handle(proposal)
        let extra = try Identity("dave").keyPackage(suite: 1)
        let commit = try states[0].commit(adding: [extra.keyPackage])
        #expect(commit.newState.reinitialization == nil)
        #expect(try states[1].handle(commit.message) == .newEpoch(2))
        #expect(states[1].reinitialization == nil)
    }

    @Test func welcomeWithoutTheReInitLinkIsRejected() throws {
        var (identities, states) = try trio()
        let commit = try states[0].commitReInit(target)
        states[0] = commit.newState
        _ = try states[1].handle(commit.message)
        // A plain new group with the right parameters but no reinit PSK.
        let fresh = try identities.map(newKeyPackage)
        var impostor = try GroupState(creating: target.groupID, keyPackage: fresh[0].keyPackage, secrets: fresh[0].secrets,
                                      extensions: target.extensions, configuration: Self.configuration)
        let plain = try impostor.commit(adding: [fresh[1].keyPackage])
        #expect(throws: MLSGroupError.reinitMismatch("the Welcome does not name the old group's reinit PSK")) {
            try GroupState(welcome: try #require(plain.welcome), keyPackage: fresh[1].keyPackage, secrets: fresh[1].secrets, reinitializing: states[1])
        }
        // A member whose group has no committed ReInit cannot join a reinitialized group.
        let start = try states[0].reinitialize(keyPackage: fresh[0].keyPackage, secrets: fresh[0].secrets, adding: [fresh[2].keyPackage])
        #expect(throws: MLSGroupError.reinitMismatch("the old group has no committed ReInit")) {
            try GroupState(welcome: try #require(start.welcome), keyPackage: fresh[2].keyPackage, secrets: fresh[2].secrets, reinitializing: states[2])
        }
    }

    @Test func reInitToAnUnsupportedSuiteIsRejected() throws {
        var (_, states) = try trio()
        let x448 = ReInit(groupID: [1], version: .mls10, cipherSuite: CipherSuiteID(rawValue: 4), extensions: [])
        #expect(throws: MLSCryptoError.self) { try states[0].propose(.reinit(x448)) }
        #expect(throws: MLSCryptoError.self) { try states[0].commitReInit(x448) }
    }
}
