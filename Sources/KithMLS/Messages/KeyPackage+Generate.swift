/// Creating a signed KeyPackage with fresh keys (RFC 9420 §10).
extension KeyPackage {
    /// Generates a KeyPackage for `credential` with fresh HPKE init and leaf keys.
    ///
    /// - Parameters:
    ///   - signatureKeys: the member's signature key pair (reused across KeyPackages of one identity).
    ///   - lifetime: the validity window of the leaf.
    /// - Returns: the signed package and the private keys to keep until it is used.
    public static func generate(suite: CipherSuite, credential: Credential, signatureKeys: KeyPair, lifetime: Lifetime,
                                capabilities: Capabilities? = nil, leafExtensions: [Extension] = [],
                                extensions: [Extension] = []) throws -> (keyPackage: KeyPackage, secrets: KeyPackageSecrets) {
        let initKeys = suite.kem.generateKeyPair()
        let leafKeys = suite.kem.generateKeyPair()
        let defaultCapabilities = Capabilities(versions: [.mls10], cipherSuites: [suite.id], extensions: [], proposals: [],
                                               credentials: [credential.type])
        var leaf = LeafNode(encryptionKey: leafKeys.publicKey, signatureKey: signatureKeys.publicKey, credential: credential,
                            capabilities: capabilities ?? defaultCapabilities, source: .keyPackage(lifetime), extensions: leafExtensions,
                            signature: [])
        try leaf.sign(suite: suite, signaturePrivateKey: signatureKeys.privateKey, groupID: [], leafIndex: LeafIndex(0))
        var package = KeyPackage(version: .mls10, cipherSuite: suite.id, initKey: initKeys.publicKey, leafNode: leaf,
                                 extensions: extensions, signature: [])
        package.signature = try suite.signWithLabel(privateKey: signatureKeys.privateKey, label: "KeyPackageTBS", content: package.toBeSigned)
        return (package, KeyPackageSecrets(initPrivateKey: initKeys.privateKey, encryptionPrivateKey: leafKeys.privateKey,
                                           signaturePrivateKey: signatureKeys.privateKey))
    }
}
