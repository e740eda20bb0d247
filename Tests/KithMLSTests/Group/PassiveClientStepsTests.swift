import Foundation
import KithMLS
import KithMLSConformance
import Testing

/// A passive-client case follows a committed ReInit into the new group and a branch Welcome into a subgroup, and reports
/// clearly the steps a passive client cannot follow.
@Suite struct PassiveClientStepsTests {
    private struct Member {
        let keyPackage: KeyPackage
        let secrets: KeyPackageSecrets
    }

    private static let configuration = GroupConfiguration(clock: { nil })

    private static func member(_ name: String, _ suite: CipherSuite, signatureKeys: KeyPair? = nil) throws -> Member {
        let generated = try KeyPackage.generate(suite: suite, credential: .basic(identity: Array(name.utf8)),
                                                signatureKeys: signatureKeys ?? suite.signature.generateKeyPair(),
                                                lifetime: Lifetime(notBefore: 0, notAfter: .max))
        return Member(keyPackage: generated.keyPackage, secrets: generated.secrets)
    }

    private static func hex(_ message: MLSMessage) -> String { HexString.encode(message.tlsEncoded) }

    /// The case JSON of `passive` joining by `welcome` at `authenticator`, then the given epochs.
    private static func passiveCase(suite: CipherSuite, passive: Member, welcome: Welcome, authenticator: [UInt8],
                                    epochs: [(message: MLSMessage, authenticator: [UInt8])]) throws -> PassiveClientCase {
        let object: [String: Any] = [
            "cipher_suite": Int(suite.id.rawValue),
            "external_psks": [],
            "key_package": hex(MLSMessage(body: .keyPackage(passive.keyPackage))),
            "signature_priv": HexString.encode(passive.secrets.signaturePrivateKey),
            "encryption_priv": HexString.encode(passive.secrets.encryptionPrivateKey),
            "init_priv": HexString.encode(passive.secrets.initPrivateKey),
            "welcome": hex(MLSMessage(body: .welcome(welcome))),
            "ratchet_tree": NSNull(),
            "initial_epoch_authenticator": HexString.encode(authenticator),
            "epochs": epochs.map { ["proposals": [String](), "commit": hex($0.message), "epoch_authenticator": HexString.encode($0.authenticator)] },
        ]
        return try JSONDecoder().decode(PassiveClientCase.self, from: JSONSerialization.data(withJSONObject: object))
    }

    /// Alice's group with the passive member joined, plus one empty commit.
    private static func start(_ suite: CipherSuite) throws -> (alice: GroupState, aliceKeys: KeyPair, passive: Member, welcome: Welcome,
                                                                 joinedAt: [UInt8], empty: (MLSMessage, [UInt8])) {
        let aliceKeys = suite.signature.generateKeyPair()
        let alice = try member("alice", suite, signatureKeys: aliceKeys)
        let passive = try member("passive", suite)
        var state = try GroupState(creating: Array("origin".utf8), keyPackage: alice.keyPackage, secrets: alice.secrets, configuration: configuration)
        let add = try state.commit(adding: [passive.keyPackage])
        let welcome = try #require(add.welcome)
        state = add.newState
        let joinedAt = state.epochAuthenticator
        let empty = try state.commit()
        return (empty.newState, aliceKeys, passive, welcome, joinedAt, (empty.message, empty.newState.epochAuthenticator))
    }

    @Test func reinitWelcomeIsFollowedIntoTheNewGroup() throws {
        let suite = try CipherSuite(rawValue: 1)
        let start = try Self.start(suite)
        let (aliceKeys, passive, welcome, joinedAt, empty) = (start.aliceKeys, start.passive, start.welcome, start.joinedAt, start.empty)
        var alice = start.alice
        let reinit = ReInit(groupID: Array("successor".utf8), version: .mls10, cipherSuite: suite.id, extensions: [])
        let closing = try alice.commitReInit(reinit)
        alice = closing.newState
        let aliceAgain = try Self.member("alice", suite, signatureKeys: aliceKeys)
        let restart = try alice.reinitialize(keyPackage: aliceAgain.keyPackage, secrets: aliceAgain.secrets, adding: [passive.keyPackage])
        var successor = restart.newState
        let successorWelcome = try #require(restart.welcome)
        let next = try successor.commit()
        successor = next.newState
        let vector = try Self.passiveCase(suite: suite, passive: passive, welcome: welcome, authenticator: joinedAt, epochs: [
            empty,
            (closing.message, closing.newState.epochAuthenticator),
            (MLSMessage(body: .welcome(successorWelcome)), restart.newState.epochAuthenticator),
            (next.message, successor.epochAuthenticator),
        ])
        let run = vector.run()
        #expect(run.outcome == .passed)
        #expect(run.commits == 3)
        #expect(run.reinitCommits == 1)
        #expect(run.reinitWelcomes == 1)
        #expect(run.branchWelcomes == 0)
    }

    @Test func branchWelcomeIsFollowedIntoTheSubgroup() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (alice, aliceKeys, passive, welcome, joinedAt, empty) = try Self.start(suite)
        let aliceAgain = try Self.member("alice", suite, signatureKeys: aliceKeys)
        let branched = try alice.branch(groupID: Array("subgroup".utf8), keyPackage: aliceAgain.keyPackage, secrets: aliceAgain.secrets,
                                        adding: [passive.keyPackage])
        let vector = try Self.passiveCase(suite: suite, passive: passive, welcome: welcome, authenticator: joinedAt, epochs: [
            empty,
            (MLSMessage(body: .welcome(try #require(branched.welcome))), branched.newState.epochAuthenticator),
        ])
        let run = vector.run()
        #expect(run.outcome == .passed)
        #expect(run.branchWelcomes == 1)
        #expect(run.leftFirstGroup)
    }

    @Test func commitAfterReInitIsReportedAsNotFollowable() throws {
        let suite = try CipherSuite(rawValue: 1)
        let start = try Self.start(suite)
        let (passive, welcome, joinedAt, empty) = (start.passive, start.welcome, start.joinedAt, start.empty)
        var alice = start.alice
        let closing = try alice.commitReInit(ReInit(groupID: Array("successor".utf8), version: .mls10, cipherSuite: suite.id, extensions: []))
        let vector = try Self.passiveCase(suite: suite, passive: passive, welcome: welcome, authenticator: joinedAt, epochs: [
            empty,
            (closing.message, closing.newState.epochAuthenticator),
            empty,
        ])
        let run = vector.run()
        guard case .skipped(let reason) = run.outcome else {
            Issue.record("expected a skip, got \(run.outcome)")
            return
        }
        #expect(reason.contains("not followable"))
        #expect(reason.contains("epoch 2"))
        #expect(run.reinitCommits == 1)
    }

    @Test func wrongEpochAuthenticatorAfterBranchFails() throws {
        let suite = try CipherSuite(rawValue: 1)
        let (alice, aliceKeys, passive, welcome, joinedAt, empty) = try Self.start(suite)
        let aliceAgain = try Self.member("alice", suite, signatureKeys: aliceKeys)
        let branched = try alice.branch(groupID: Array("subgroup".utf8), keyPackage: aliceAgain.keyPackage, secrets: aliceAgain.secrets,
                                        adding: [passive.keyPackage])
        let vector = try Self.passiveCase(suite: suite, passive: passive, welcome: welcome, authenticator: joinedAt, epochs: [
            empty,
            (MLSMessage(body: .welcome(try #require(branched.welcome))), [UInt8](repeating: 0, count: 32)),
        ])
        guard case .failed(let reason) = vector.run().outcome else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("epoch 1 epoch_authenticator"))
    }
}
