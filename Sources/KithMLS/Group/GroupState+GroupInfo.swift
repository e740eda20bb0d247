/// Publishing a signed GroupInfo for Welcomes and external joins (RFC 9420 §12.4.3).
extension GroupState {
    /// A GroupInfo of the current epoch signed by this member.
    ///
    /// - Parameters:
    ///   - includeRatchetTree: adds the `ratchet_tree` extension.
    ///   - includeExternalPub: adds the `external_pub` extension that external joiners encrypt to.
    public func groupInfo(includeRatchetTree: Bool = true, includeExternalPub: Bool = true) throws -> GroupInfo {
        var extensions: [Extension] = []
        if includeRatchetTree { extensions.append(Extension(type: .ratchetTree, data: tree.tlsEncoded)) }
        if includeExternalPub {
            var writer = TLSWriter()
            writer.writeOpaque(try secrets.externalKeyPair().publicKey)
            extensions.append(Extension(type: .externalPub, data: writer.bytes))
        }
        var info = GroupInfo(groupContext: context, extensions: extensions, confirmationTag: confirmationTag, signer: ownLeaf, signature: [])
        try info.sign(suite: suite, signaturePrivateKey: signaturePrivateKey)
        return info
    }
}
