import KithCanonical

/// The private keys belonging to a published KeyPackage.
public struct KeyPackageSecrets: Sendable, Hashable {
    /// HPKE private key of the KeyPackage `init_key`.
    public var initPrivateKey: [UInt8]
    /// HPKE private key of the leaf `encryption_key`.
    public var encryptionPrivateKey: [UInt8]
    /// Signature private key of the leaf.
    public var signaturePrivateKey: [UInt8]

    /// Bundles the three private keys.
    public init(initPrivateKey: [UInt8], encryptionPrivateKey: [UInt8], signaturePrivateKey: [UInt8]) {
        self.initPrivateKey = initPrivateKey
        self.encryptionPrivateKey = encryptionPrivateKey
        self.signaturePrivateKey = signaturePrivateKey
    }
}

/// Joining a group from a Welcome (RFC 9420 §12.4.3.1).
extension GroupState {
    /// Joins the group described by `welcome` with the KeyPackage it was addressed to.
    ///
    /// - Parameters:
    ///   - ratchetTree: the tree, when it is delivered out of band instead of in the GroupInfo `ratchet_tree` extension.
    ///   - psks: external PSKs (and resumption PSKs) the Welcome may name.
    public init(welcome: Welcome, keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, ratchetTree: RatchetTree? = nil,
                psks: PSKStore = PSKStore(), configuration: GroupConfiguration) throws {
        let suite = try CipherSuite(keyPackage.cipherSuite)
        let groupSecrets = try welcome.decryptGroupSecrets(suite: suite, keyPackageRef: keyPackage.reference(suite: suite),
                                                           initPrivateKey: keys.initPrivateKey)
        let pskSecret = try PreSharedKey.pskSecret(suite: suite, psks: psks.resolve(groupSecrets.psks))
        let groupInfo = try welcome.decryptGroupInfo(suite: suite, joinerSecret: groupSecrets.joinerSecret, pskSecret: pskSecret)
        let context = groupInfo.groupContext
        guard context.cipherSuite == suite.id else { throw MLSGroupError.parameterMismatch("GroupContext cipher suite") }
        guard context.version == .mls10 else { throw MLSGroupError.parameterMismatch("protocol version") }
        try CapabilityRules.checkJoiner(keyPackage.leafNode.capabilities, extensions: context.extensions)

        let tree = try GroupState.verifiedTree(of: groupInfo, outOfBand: ratchetTree, suite: suite)

        guard let own = tree.occupiedLeaves.first(where: { tree.leaf($0) == keyPackage.leafNode }) else { throw MLSGroupError.ownLeafNotFound }
        var privateKeys = try TreePrivateKeys(leaf: own, leafPrivateKey: keys.encryptionPrivateKey, suite: suite)
        guard privateKeys.keyPairs[own.nodeIndex]?.publicKey == keyPackage.leafNode.encryptionKey else {
            throw MLSGroupError.invalidKeyPackage("encryption private key does not match the leaf")
        }
        if let pathSecret = groupSecrets.pathSecret {
            var node = tree.math.commonAncestor(own.nodeIndex, groupInfo.signer.nodeIndex)
            var secret = pathSecret
            while true {
                if let parent = tree.parent(node) {
                    try privateKeys.setPathSecret(secret, for: node, suite: suite, expectedPublicKey: parent.encryptionKey)
                    secret = try suite.deriveSecret(secret: secret, label: "path")
                }
                guard let next = tree.math.parent(node) else { break }
                node = next
            }
        }

        let epochSecrets = try EpochSecrets(suite: suite, joinerSecret: groupSecrets.joinerSecret, pskSecret: pskSecret, context: context)
        guard ConstantTime.equals(epochSecrets.confirmationTag(confirmedTranscriptHash: context.confirmedTranscriptHash), groupInfo.confirmationTag) else {
            throw MLSGroupError.confirmationTagMismatch
        }
        self.suite = suite
        self.context = context
        self.tree = tree
        self.privateKeys = privateKeys
        self.signaturePrivateKey = keys.signaturePrivateKey
        self.secrets = epochSecrets
        self.confirmationTag = groupInfo.confirmationTag
        self.interimTranscriptHash = TranscriptHashes.interim(suite: suite, confirmed: context.confirmedTranscriptHash,
                                                              confirmationTag: groupInfo.confirmationTag)
        self.secretTree = try SecretTree(suite: suite, encryptionSecret: epochSecrets.encryptionSecret, leafCount: tree.leafCount)
        self.psks = psks
        self.pendingProposals = []
        self.configuration = configuration
        rememberResumptionPSK()
    }
}

extension GroupState {
    /// The ratchet tree a GroupInfo describes (from its extension, else given out of band), after
    /// checking the GroupInfo signature by its signer, the tree hash against the group context,
    /// and the tree's own validity (RFC 9420 12.4.3.1).
    static func verifiedTree(of groupInfo: GroupInfo, outOfBand ratchetTree: RatchetTree?, suite: CipherSuite) throws -> RatchetTree {
        let context = groupInfo.groupContext
        let tree: RatchetTree
        if let encoded = groupInfo.extensions.data(of: .ratchetTree) {
            tree = try RatchetTree(tlsEncoded: encoded)
        } else if let ratchetTree {
            tree = ratchetTree
        } else {
            throw MLSGroupError.missingRatchetTree
        }
        guard let signer = tree.leaf(groupInfo.signer) else { throw MLSGroupError.unknownSigner(groupInfo.signer) }
        guard groupInfo.verifySignature(suite: suite, signerKey: signer.signatureKey) else { throw MLSWelcomeError.invalidGroupInfoSignature }
        guard tree.rootTreeHash(suite: suite) == context.treeHash else { throw MLSGroupError.treeHashMismatch }
        try tree.validate(suite: suite, groupID: context.groupID)
        return tree
    }
}
