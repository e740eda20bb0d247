import KithMLS
import KithMLSConformance
import Testing

/// Adds of many members in one commit are validated against each other as well as against the members.
@Suite struct BulkAddTests {
    @Test func twoKeyPackagesSharingASignatureKeyInOneCommitAreRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try GroupRoundTripTests.Member("alice", suite: suite)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let shared = suite.signature.generateKeyPair()
        let first = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: shared,
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let second = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: shared,
                                             lifetime: Lifetime(notBefore: 0, notAfter: .max))
        #expect(throws: MLSTreeError.duplicateKey("signature key of leaf 1")) { try state.commit(adding: [first.keyPackage, second.keyPackage]) }
        #expect(state.epoch == 0)
    }

    /// Commits of a few adds scan the members; larger ones use the membership index. Both reject a reused key.
    @Test(arguments: [2, 6, 12])
    func reusedKeysAreRejectedWithFewOrManyAdds(adds: Int) throws {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try GroupRoundTripTests.Member("alice", suite: suite)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        var packages = try (1..<adds).map { index in
            try KeyPackage.generate(suite: suite, credential: .basic(identity: [UInt8(index)]), signatureKeys: suite.signature.generateKeyPair(),
                                    lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage
        }
        let reusedSignature = try KeyPackage.generate(suite: suite, credential: .basic(identity: [0xEE]), signatureKeys: KeyPair(privateKey: alice.secrets.signaturePrivateKey,
                                                                                     publicKey: alice.keyPackage.leafNode.signatureKey),
                                                      lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage
        #expect(throws: MLSTreeError.duplicateKey("signature key of leaf 0")) { try state.commit(adding: packages + [reusedSignature]) }
        packages.append(packages[0])
        #expect(throws: (any Error).self) { try state.commit(adding: packages) }
        packages.removeLast()
        let pending = try state.commit(adding: packages)
        #expect(pending.newState.tree.occupiedLeaves.count == adds)
        #expect(state.epoch == 0)
    }

    /// Many adds check their signatures on every core first; a bad one is still reported with the
    /// same error, for the same KeyPackage, as when checked one by one (few adds).
    @Test(arguments: [3, 20])
    func aBadSignatureAmongManyAddsIsReportedAsItWouldBeAlone(adds: Int) throws {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try GroupRoundTripTests.Member("alice", suite: suite)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        var packages = try (0..<adds).map { index in
            try KeyPackage.generate(suite: suite, credential: .basic(identity: [UInt8(index)]), signatureKeys: suite.signature.generateKeyPair(),
                                    lifetime: Lifetime(notBefore: 0, notAfter: .max)).keyPackage
        }
        // The KeyPackage signature covers its leaf: a tampered leaf fails it first, in both paths.
        packages[adds - 2].leafNode.signature[0] ^= 0x01
        #expect(throws: MLSGroupError.invalidKeyPackage("signature does not verify")) { try state.commit(adding: packages) }
        packages[adds - 2].leafNode.signature[0] ^= 0x01
        packages[adds - 2].signature[0] ^= 0x01
        #expect(throws: MLSGroupError.invalidKeyPackage("signature does not verify")) { try state.commit(adding: packages) }
        #expect(state.epoch == 0)
        packages[adds - 2].signature[0] ^= 0x01
        #expect(try state.commit(adding: packages).newState.tree.occupiedLeaves.count == adds + 1)
    }

    @Test func keyPackageWithoutAMembersCredentialTypeIsRejected() throws {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let alice = try GroupRoundTripTests.Member("alice", suite: suite)
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let plain = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        let onlyX509 = try KeyPackage.generate(suite: suite, credential: .x509(certificates: [[1]]), signatureKeys: suite.signature.generateKeyPair(),
                                               lifetime: Lifetime(notBefore: 0, notAfter: .max),
                                               capabilities: Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [],
                                                                          credentials: [.x509]))
        #expect(throws: MLSGroupError.unsupportedCapability("credential types not mutually supported with leaf 0")) {
            try state.commit(adding: [plain.keyPackage, onlyX509.keyPackage])
        }
    }
}

/// Members added by a commit that also changes the GroupContext extensions must support the new extensions.
@Suite struct AddWithNewExtensionsTests {
    @Test func addIsCheckedAgainstTheExtensionsOfTheSameCommit() throws {
        let suite = try CipherSuite(rawValue: 1)
        let configuration = GroupConfiguration(clock: { nil })
        let custom = ExtensionType(rawValue: 0xF0A1)
        let capable = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [custom], proposals: [], credentials: [.basic])
        let alice = try KeyPackage.generate(suite: suite, credential: .basic(identity: [1]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max), capabilities: capable)
        let plain = try KeyPackage.generate(suite: suite, credential: .basic(identity: [2]), signatureKeys: suite.signature.generateKeyPair(),
                                            lifetime: Lifetime(notBefore: 0, notAfter: .max))
        var state = try GroupState(creating: [8], keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let required = RequiredCapabilities(extensionTypes: [custom], proposalTypes: [], credentialTypes: [])
        _ = try state.propose(.groupContextExtensions([required.asExtension]))
        #expect(throws: MLSGroupError.unsupportedCapability("required extension \(0xF0A1) not supported")) {
            try state.commit(adding: [plain.keyPackage])
        }
    }
}
