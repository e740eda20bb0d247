/// Branching a subgroup (RFC 9420 §11.3): some members start a new group linked to this one by a `branch` resumption PSK.
extension GroupState {
    /// Creates a subgroup `groupID` with this member's new KeyPackage at leaf 0 and commits adding `keyPackages` (new
    /// KeyPackages of other members of this group, same suite); the Welcome carries the `branch` PSK of the current epoch.
    ///
    /// - Returns: the commit of the subgroup's epoch 1 (nobody else needs to process it) with the Welcome for the others.
    public func branch(groupID: [UInt8], keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, adding keyPackages: [KeyPackage],
                       extensions: [Extension] = [], configuration newConfiguration: GroupConfiguration? = nil) throws -> PendingCommit {
        guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
        guard keyPackage.cipherSuite == suite.id, keyPackages.allSatisfy({ $0.cipherSuite == suite.id }) else {
            throw MLSGroupError.parameterMismatch("a subgroup keeps the group's cipher suite")
        }
        for candidate in [keyPackage] + keyPackages where !isMemberCredential(candidate.leafNode.credential) {
            throw MLSGroupError.invalidKeyPackage("a subgroup member must be a member of the group")
        }
        var state = try GroupState(creating: groupID, keyPackage: keyPackage, secrets: keys, extensions: extensions,
                                   configuration: newConfiguration ?? configuration)
        state.psks.resumption[context.groupID] = psks.resumption[context.groupID]
        let link = PreSharedKeyID(kind: .resumption(usage: .branch, groupID: context.groupID, epoch: context.epoch),
                                  nonce: (0..<suite.secretSize).map { _ in UInt8.random(in: 0...255) })
        return try state.buildCommit(byValue: keyPackages.map { .add($0) }, includePending: false, includePath: true, wireFormat: .publicMessage,
                                     authenticatedData: [], ratchetTreeInWelcome: true, extraPSKs: [link])
    }

    /// Joins a subgroup branched from `parent` (this member's state in the original group), checking that the Welcome
    /// names the `branch` PSK of one of `parent`'s retained epochs, keeps the suite and version, starts at epoch 1, and
    /// that every subgroup member holds the credential of a member of the original group.
    ///
    /// - Parameter psks: external PSKs the Welcome may also name; `parent`'s resumption PSKs are added.
    public init(welcome: Welcome, keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, branchingFrom parent: GroupState,
                psks: PSKStore = PSKStore(), configuration: GroupConfiguration? = nil) throws {
        let suite = try CipherSuite(keyPackage.cipherSuite)
        guard suite.id == parent.suite.id else { throw MLSGroupError.parameterMismatch("a subgroup keeps the group's cipher suite") }
        let groupSecrets = try welcome.decryptGroupSecrets(suite: suite, keyPackageRef: keyPackage.reference(suite: suite),
                                                           initPrivateKey: keys.initPrivateKey)
        let linked = groupSecrets.psks.contains { id in
            if case .resumption(.branch, let groupID, _) = id.kind { return groupID == parent.context.groupID }
            return false
        }
        guard linked else { throw MLSGroupError.parameterMismatch("the Welcome does not name a branch PSK of the group") }
        var store = psks
        store.resumption[parent.context.groupID] = parent.psks.resumption[parent.context.groupID]
        try self.init(welcome: welcome, keyPackage: keyPackage, secrets: keys, psks: store, configuration: configuration ?? parent.configuration)
        guard context.version == parent.context.version else { throw MLSGroupError.parameterMismatch("a subgroup keeps the protocol version") }
        guard context.epoch == 1 else { throw MLSGroupError.parameterMismatch("a subgroup starts at epoch 1, not \(context.epoch)") }
        for index in tree.occupiedLeaves {
            guard let leaf = tree.leaf(index), parent.isMemberCredential(leaf.credential) else {
                throw MLSGroupError.invalidKeyPackage("subgroup member at \(index) is not a member of the group")
            }
        }
    }

    /// True when a member of this group presents `credential` (credentials are compared byte for byte).
    func isMemberCredential(_ credential: Credential) -> Bool {
        tree.occupiedLeaves.contains { tree.leaf($0)?.credential == credential }
    }
}
