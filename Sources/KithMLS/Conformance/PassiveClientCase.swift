/// A passive-client case (`passive-client-*.json`): join by Welcome, then follow commits and compare epoch authenticators.
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

    /// Joins, then processes every epoch's proposals and commit.
    public func check() -> VectorOutcome {
        Conformance.run(suite: cipher_suite) { suite in
            guard case .keyPackage(let keyPackage) = try MLSMessage(tlsEncoded: key_package.bytes).body else { throw ConformanceMismatch("key_package is not a KeyPackage") }
            guard case .welcome(let welcomeMessage) = try MLSMessage(tlsEncoded: welcome.bytes).body else { throw ConformanceMismatch("welcome is not a Welcome") }
            let tree = try ratchet_tree.map { try RatchetTree(tlsEncoded: $0.bytes) }
            var store = PSKStore()
            for psk in external_psks { store.external[psk.psk_id.bytes] = psk.psk.bytes }
            // The vectors' KeyPackages may have expired lifetimes: lifetime checks are disabled here.
            let configuration = GroupConfiguration(clock: { nil })
            var group = try GroupState(welcome: welcomeMessage, keyPackage: keyPackage,
                                       secrets: KeyPackageSecrets(initPrivateKey: init_priv.bytes, encryptionPrivateKey: encryption_priv.bytes,
                                                                  signaturePrivateKey: signature_priv.bytes),
                                       ratchetTree: tree, psks: store, configuration: configuration)
            try Conformance.expectEqual("initial_epoch_authenticator", group.epochAuthenticator, initial_epoch_authenticator.bytes)
            for (index, epoch) in epochs.enumerated() {
                for proposal in epoch.proposals {
                    try group.handle(try MLSMessage(tlsEncoded: proposal.bytes))
                }
                try group.handle(try MLSMessage(tlsEncoded: epoch.commit.bytes))
                try Conformance.expectEqual("epoch \(index) epoch_authenticator", group.epochAuthenticator, epoch.epoch_authenticator.bytes)
            }
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
