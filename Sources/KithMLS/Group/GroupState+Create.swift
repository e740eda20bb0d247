/// Creating a one-member group (RFC 9420 §11).
extension GroupState {
    /// Creates a group whose only member is the owner of `keyPackage` (its leaf becomes leaf 0).
    public init(creating groupID: [UInt8], keyPackage: KeyPackage, secrets keys: KeyPackageSecrets, extensions: [Extension] = [],
                configuration: GroupConfiguration) throws {
        let suite = try CipherSuite(keyPackage.cipherSuite)
        let tree = RatchetTree(firstLeaf: keyPackage.leafNode)
        let context = GroupContext(cipherSuite: suite.id, groupID: groupID, epoch: 0, treeHash: tree.rootTreeHash(suite: suite),
                                   confirmedTranscriptHash: [], extensions: extensions)
        let initSecret = (0..<suite.secretSize).map { _ in UInt8.random(in: 0...255) }
        let epochSecrets = try EpochSecrets(suite: suite, initSecret: initSecret, commitSecret: suite.zeroSecret, pskSecret: suite.zeroSecret,
                                            context: context)
        let tag = epochSecrets.confirmationTag(confirmedTranscriptHash: [])
        self.suite = suite
        self.context = context
        self.tree = tree
        let ownKeys = try TreePrivateKeys(leaf: LeafIndex(0), leafPrivateKey: keys.encryptionPrivateKey, suite: suite)
        guard ownKeys.keyPairs[LeafIndex(0).nodeIndex]?.publicKey == keyPackage.leafNode.encryptionKey else {
            throw MLSGroupError.invalidKeyPackage("encryption private key does not match the leaf")
        }
        self.privateKeys = ownKeys
        self.signaturePrivateKey = keys.signaturePrivateKey
        self.secrets = epochSecrets
        self.confirmationTag = tag
        self.interimTranscriptHash = TranscriptHashes.interim(suite: suite, confirmed: [], confirmationTag: tag)
        self.secretTree = try SecretTree(suite: suite, encryptionSecret: epochSecrets.encryptionSecret, leafCount: 1)
        self.psks = PSKStore()
        self.pendingProposals = []
        self.configuration = configuration
        rememberResumptionPSK()
    }
}
