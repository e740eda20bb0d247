/// Reinitializing a group (RFC 9420 §11.2, §12.1.5): a committed ReInit closes the group, and a member starts the group
/// it describes, linked to the old one by a `reinit` resumption PSK.
extension GroupState {
    /// Checks a ReInit body against this group: the version must not go down and the suite must be one Kith runs.
    func checkReInit(_ reinit: ReInit) throws {
        guard reinit.version.rawValue >= context.version.rawValue else { throw MLSGroupError.reinitMismatch("ReInit lowers the protocol version") }
        guard reinit.version == .mls10 else { throw MLSGroupError.reinitMismatch("ReInit names an unknown protocol version") }
        _ = try CipherSuite(reinit.cipherSuite)
    }

    /// Commits `reinit` as the only proposal (by value); the new epoch is closed (see ``reinitialization``).
    public mutating func commitReInit(_ reinit: ReInit, includePath: Bool = false, wireFormat: WireFormat = .publicMessage,
                                      authenticatedData: [UInt8] = []) throws -> PendingCommit {
        var work = self
        let pending = try work.buildCommit(byValue: [.reinit(reinit)], includePending: false, includePath: includePath, wireFormat: wireFormat,
                                           authenticatedData: authenticatedData, ratchetTreeInWelcome: true)
        self = work
        return pending
    }

    /// The `reinit` resumption PSK id linking the new group to this closed epoch.
    func reinitPSKID() -> PreSharedKeyID {
        PreSharedKeyID(kind: .resumption(usage: .reinit, groupID: context.groupID, epoch: context.epoch),
                       nonce: (0..<suite.secretSize).map { _ in UInt8.random(in: 0...255) })
    }

    /// Creates the group described by the committed ReInit, with this member's new KeyPackage at leaf 0, and commits adding
    /// `keyPackages` (the other members' new KeyPackages for the new suite); the Welcome carries the `reinit` PSK.
    ///
    /// - Returns: the commit of the new group's epoch 1 (nobody else needs to process it) with the Welcome for the others.
    public func reinitialize(keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, adding keyPackages: [KeyPackage],
                             configuration newConfiguration: GroupConfiguration? = nil) throws -> PendingCommit {
        guard let reinit = reinitialization else { throw MLSGroupError.reinitMismatch("no ReInit was committed in this epoch") }
        guard keyPackage.cipherSuite == reinit.cipherSuite else { throw MLSGroupError.reinitMismatch("KeyPackage suite differs from the ReInit") }
        var state = try GroupState(creating: reinit.groupID, keyPackage: keyPackage, secrets: keys, extensions: reinit.extensions,
                                   configuration: newConfiguration ?? configuration)
        state.psks.resumption[context.groupID] = psks.resumption[context.groupID]
        return try state.buildCommit(byValue: keyPackages.map { .add($0) }, includePending: false, includePath: true, wireFormat: .publicMessage,
                                     authenticatedData: [], ratchetTreeInWelcome: true, extraPSKs: [reinitPSKID()])
    }

    /// Joins the group that replaces the closed group `old` after its ReInit, checking that the Welcome matches the ReInit
    /// (group id, version, suite, extensions, epoch 1) and names the `reinit` PSK of `old`'s last epoch.
    ///
    /// - Parameter psks: external PSKs the Welcome may also name; `old`'s resumption PSKs are added.
    public init(welcome: Welcome, keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, reinitializing old: GroupState,
                psks: PSKStore = PSKStore(), configuration: GroupConfiguration? = nil) throws {
        guard let reinit = old.reinitialization else { throw MLSGroupError.reinitMismatch("the old group has no committed ReInit") }
        let suite = try CipherSuite(keyPackage.cipherSuite)
        let groupSecrets = try welcome.decryptGroupSecrets(suite: suite, keyPackageRef: keyPackage.reference(suite: suite),
                                                           initPrivateKey: keys.initPrivateKey)
        let linked = groupSecrets.psks.contains { id in
            if case .resumption(.reinit, let groupID, let epoch) = id.kind { return groupID == old.context.groupID && epoch == old.epoch }
            return false
        }
        guard linked else { throw MLSGroupError.reinitMismatch("the Welcome does not name the old group's reinit PSK") }
        var store = psks
        store.resumption[old.context.groupID] = old.psks.resumption[old.context.groupID]
        try self.init(welcome: welcome, keyPackage: keyPackage, secrets: keys, psks: store, configuration: configuration ?? old.configuration)
        guard context.groupID == reinit.groupID else { throw MLSGroupError.reinitMismatch("group id") }
        guard context.version == reinit.version else { throw MLSGroupError.reinitMismatch("protocol version") }
        guard context.cipherSuite == reinit.cipherSuite else { throw MLSGroupError.reinitMismatch("cipher suite") }
        guard context.extensions == reinit.extensions else { throw MLSGroupError.reinitMismatch("GroupContext extensions") }
        guard context.epoch == 1 else { throw MLSGroupError.reinitMismatch("the new group starts at epoch \(context.epoch), not 1") }
    }
}
