import Testing

@testable import KithMLS

/// Regression (issue 13, item 5a): commits from a conformant peer whose KeyPackage leaves do not list the group's
/// cipher suite in `capabilities.cipher_suites` are accepted; the KeyPackage's own `cipher_suite` is what §10.1 checks.
@Suite struct CapabilityInteropTests {
    static let configuration = GroupConfiguration(clock: { nil })

    static func keyPackage(_ suite: CipherSuite, name: UInt8, capabilities: Capabilities) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        try KeyPackage.generate(suite: suite, credential: .basic(identity: [name]), signatureKeys: suite.signature.generateKeyPair(),
                                lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: capabilities)
    }

    @Test func aCommitAddingALeafThatOmitsTheSuiteIsAccepted() throws {
        let suite = try CipherSuite(rawValue: 1)
        let plain = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [], credentials: [.basic])
        // What another implementation may send: no suites, no versions listed.
        let sparse = Capabilities(versions: [], cipherSuites: [], extensions: [], proposals: [], credentials: [.basic])
        let alice = try Self.keyPackage(suite, name: 1, capabilities: plain)
        let bob = try Self.keyPackage(suite, name: 2, capabilities: plain)
        let carol = try Self.keyPackage(suite, name: 3, capabilities: sparse)
        var aliceState = try GroupState(creating: [7], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let first = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = first.newState
        var bobState = try GroupState(welcome: try #require(first.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets, configuration: Self.configuration)
        // Alice adds Carol; Bob, the receiver, must accept the commit.
        let second = try aliceState.commit(adding: [carol.keyPackage])
        #expect(try bobState.handle(second.message) == .newEpoch(2))
        let carolState = try GroupState(welcome: try #require(second.welcome), keyPackage: carol.keyPackage, secrets: carol.secrets, configuration: Self.configuration)
        #expect(carolState.epochAuthenticator == bobState.epochAuthenticator)
    }

    @Test func anAddProposalForSuchALeafIsAccepted() throws {
        let suite = try CipherSuite(rawValue: 1)
        let plain = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [], credentials: [.basic])
        let sparse = Capabilities(versions: [], cipherSuites: [], extensions: [], proposals: [], credentials: [.basic])
        let alice = try Self.keyPackage(suite, name: 1, capabilities: plain)
        let bob = try Self.keyPackage(suite, name: 2, capabilities: plain)
        let dave = try Self.keyPackage(suite, name: 4, capabilities: sparse)
        var aliceState = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        let first = try aliceState.commit(adding: [bob.keyPackage])
        aliceState = first.newState
        var bobState = try GroupState(welcome: try #require(first.welcome), keyPackage: bob.keyPackage, secrets: bob.secrets, configuration: Self.configuration)
        let proposal = try bobState.propose(.add(dave.keyPackage))
        #expect(throws: Never.self) { try aliceState.handle(proposal) }
    }

    @Test func aKeyPackageOfAnotherSuiteIsStillRefused() throws {
        let suite = try CipherSuite(rawValue: 1)
        let other = try CipherSuite(rawValue: 3)
        let plain = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [], credentials: [.basic])
        let alice = try Self.keyPackage(suite, name: 1, capabilities: plain)
        let stranger = try KeyPackage.generate(suite: other, credential: .basic(identity: [9]), signatureKeys: other.signature.generateKeyPair(),
                                               lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var aliceState = try GroupState(creating: [9], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: Self.configuration)
        #expect(throws: (any Error).self) { try aliceState.commit(adding: [stranger.keyPackage]) }
    }

    @Test func aMissingRequiredCapabilityIsStillRefused() throws {
        let suite = try CipherSuite(rawValue: 1)
        let required = RequiredCapabilities(extensionTypes: [ExtensionType(rawValue: 0xF0A1)], proposalTypes: [], credentialTypes: [])
        let listing = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [ExtensionType(rawValue: 0xF0A1)], proposals: [],
                                   credentials: [.basic])
        let plain = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [], credentials: [.basic])
        let alice = try Self.keyPackage(suite, name: 1, capabilities: listing)
        let bob = try Self.keyPackage(suite, name: 2, capabilities: plain)
        var aliceState = try GroupState(creating: [10], keyPackage: alice.keyPackage, secrets: alice.secrets, extensions: [required.asExtension],
                                        configuration: Self.configuration)
        #expect(throws: MLSGroupError.unsupportedCapability("required extension \(0xF0A1) not supported")) {
            try aliceState.commit(adding: [bob.keyPackage])
        }
    }
}
