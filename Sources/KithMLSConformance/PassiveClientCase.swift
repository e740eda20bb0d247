import KithMLS
/// A passive-client case (`passive-client-*.json`, upstream `interop/passive/*.json`): join by Welcome, then follow each
/// epoch and compare epoch authenticators.
///
/// An epoch's `commit` is normally a framed Commit of the current group. It may also be a Welcome: after a commit carrying
/// a ReInit it is the Welcome into the reinitialized group (joined with the `reinit` PSK of the closed group), otherwise a
/// Welcome into a subgroup branched from the current group (joined with its `branch` PSK). Both are joined with the case's
/// KeyPackage. A framed message after a ReInit, or a successor Welcome not addressed to the case's KeyPackage, cannot be
/// followed by a passive client; the case is then reported as skipped with the epoch and the reason.
public struct PassiveClientCase: Decodable, Sendable {
    struct ExternalPSK: Decodable, Sendable { let psk_id: HexString; let psk: HexString }
    struct Epoch: Decodable, Sendable { let proposals: [HexString]; let commit: HexString; let epoch_authenticator: HexString }

    let cipher_suite: UInt16
    let external_psks: [ExternalPSK]
    let key_package: HexString
    let signature_priv: HexString
    let encryption_priv: HexString
    let init_priv: HexString
    let welcome: HexString
    let ratchet_tree: HexString?
    let initial_epoch_authenticator: HexString
    let epochs: [Epoch]

    /// Joins, then processes every epoch's proposals and commit (or successor Welcome).
    public func check() -> VectorOutcome { run().outcome }

    /// Like ``check()``, also counting the ReInit and branch steps followed.
    public func run() -> PassiveClientRun {
        var trace = PassiveClientRun(outcome: .passed)
        let outcome = Conformance.run(suite: cipher_suite) { suite in
            if let stop = try follow(suite: suite, trace: &trace) { throw stop }
        }
        switch outcome {
        case .failed(let reason) where reason.hasPrefix(Self.notFollowablePrefix): trace.outcome = .skipped(reason)
        default: trace.outcome = outcome
        }
        return trace
    }

    /// The prefix of the reasons for cases a passive client cannot follow to the end.
    static let notFollowablePrefix = "not followable by a passive client: "

    /// Runs the case; returns a ``ConformanceMismatch`` (with ``notFollowablePrefix``) when the case leads where a passive client cannot go.
    private func follow(suite: CipherSuite, trace: inout PassiveClientRun) throws -> ConformanceMismatch? {
        guard case .keyPackage(let keyPackage) = try MLSMessage(tlsEncoded: key_package.bytes).body else { throw ConformanceMismatch("key_package is not a KeyPackage") }
        guard case .welcome(let welcomeMessage) = try MLSMessage(tlsEncoded: welcome.bytes).body else { throw ConformanceMismatch("welcome is not a Welcome") }
        let tree = try ratchet_tree.map { try RatchetTree(tlsEncoded: $0.bytes) }
        var store = PSKStore()
        for psk in external_psks { store.external[psk.psk_id.bytes] = psk.psk.bytes }
        let secrets = KeyPackageSecrets(initPrivateKey: init_priv.bytes, encryptionPrivateKey: encryption_priv.bytes, signaturePrivateKey: signature_priv.bytes)
        // The vectors' KeyPackages may have expired lifetimes: lifetime checks are disabled here.
        let configuration = GroupConfiguration(clock: { nil })
        var group = try GroupState(welcome: welcomeMessage, keyPackage: keyPackage, secrets: secrets, ratchetTree: tree, psks: store,
                                   configuration: configuration)
        try Conformance.expectEqual("initial_epoch_authenticator", group.epochAuthenticator, initial_epoch_authenticator.bytes)
        for (index, epoch) in epochs.enumerated() {
            let message = try MLSMessage(tlsEncoded: epoch.commit.bytes)
            if case .welcome(let successor) = message.body {
                let wasReInit = group.reinitialization != nil
                do {
                    group = wasReInit
                        ? try GroupState(welcome: successor, keyPackage: keyPackage, secrets: secrets, reinitializing: group, psks: store,
                                         configuration: configuration)
                        : try GroupState(welcome: successor, keyPackage: keyPackage, secrets: secrets, branchingFrom: group, psks: store,
                                         configuration: configuration)
                } catch MLSWelcomeError.notForThisKeyPackage {
                    return ConformanceMismatch(Self.notFollowablePrefix + "epoch \(index) is a \(wasReInit ? "ReInit" : "branch") Welcome "
                                               + "for another KeyPackage (the case has one KeyPackage); \(index) epoch(s) checked")
                }
                if wasReInit { trace.reinitWelcomes += 1 } else { trace.branchWelcomes += 1 }
            } else {
                if group.reinitialization != nil {
                    return ConformanceMismatch(Self.notFollowablePrefix + "epoch \(index) brings a \(Self.kind(of: message)) after a committed "
                                               + "ReInit closed the group, not a Welcome to the new group; \(index) epoch(s) checked")
                }
                for proposal in epoch.proposals { try group.handle(try MLSMessage(tlsEncoded: proposal.bytes)) }
                try group.handle(message)
                trace.commits += 1
                if group.reinitialization != nil { trace.reinitCommits += 1 }
            }
            try Conformance.expectEqual("epoch \(index) epoch_authenticator", group.epochAuthenticator, epoch.epoch_authenticator.bytes)
        }
        return nil
    }
}

extension PassiveClientCase {
    /// The kind of message, as named in RFC 9420.
    static func kind(of message: MLSMessage) -> String {
        switch message.body {
        case .publicMessage: "PublicMessage"
        case .privateMessage: "PrivateMessage"
        case .welcome: "Welcome"
        case .groupInfo: "GroupInfo"
        case .keyPackage: "KeyPackage"
        }
    }
}

/// A `passive-client-welcome.json` case.
public struct PassiveClientWelcomeVector: ConformanceVector {
    /// `passive-client-welcome.json`.
    public static let fileName = "passive-client-welcome.json"
    let body: PassiveClientCase
    /// Decodes the case object.
    public init(from decoder: any Decoder) throws { body = try PassiveClientCase(from: decoder) }
    /// Runs the case.
    public func check() -> VectorOutcome { body.check() }
}

/// A `passive-client-handling-commit.json` case.
public struct PassiveClientHandlingCommitVector: ConformanceVector {
    /// `passive-client-handling-commit.json`.
    public static let fileName = "passive-client-handling-commit.json"
    let body: PassiveClientCase
    /// Decodes the case object.
    public init(from decoder: any Decoder) throws { body = try PassiveClientCase(from: decoder) }
    /// Runs the case.
    public func check() -> VectorOutcome { body.check() }
}

/// A `passive-client-random.json` case.
public struct PassiveClientRandomVector: ConformanceVector {
    /// `passive-client-random.json`.
    public static let fileName = "passive-client-random.json"
    let body: PassiveClientCase
    /// Decodes the case object.
    public init(from decoder: any Decoder) throws { body = try PassiveClientCase(from: decoder) }
    /// Runs the case.
    public func check() -> VectorOutcome { body.check() }
}
