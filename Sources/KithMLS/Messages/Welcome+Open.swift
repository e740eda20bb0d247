/// Opening a Welcome (RFC 9420 §12.4.3.1).
extension Welcome {
    /// Decrypts the GroupSecrets addressed to the KeyPackage with reference `keyPackageRef`.
    public func decryptGroupSecrets(suite: CipherSuite, keyPackageRef: [UInt8], initPrivateKey: [UInt8]) throws -> GroupSecrets {
        guard cipherSuite == suite.id else { throw MLSWelcomeError.cipherSuiteMismatch }
        guard let entry = secrets.first(where: { $0.newMember == keyPackageRef }) else { throw MLSWelcomeError.notForThisKeyPackage }
        let plaintext = try suite.decryptWithLabel(privateKey: initPrivateKey, label: "Welcome", context: encryptedGroupInfo,
                                                   ciphertext: entry.encryptedGroupSecrets)
        return try GroupSecrets(tlsEncoded: plaintext)
    }

    /// Decrypts the GroupInfo with the welcome key derived from `joiner_secret` and `psk_secret`.
    public func decryptGroupInfo(suite: CipherSuite, joinerSecret: [UInt8], pskSecret: [UInt8]) throws -> GroupInfo {
        let welcomeSecret = try EpochSecrets.welcomeSecret(suite: suite, joinerSecret: joinerSecret, pskSecret: pskSecret)
        let (key, nonce) = try EpochSecrets.welcomeKeyAndNonce(suite: suite, welcomeSecret: welcomeSecret)
        let plaintext = try suite.aead.open(key: key, nonce: nonce, aad: [], ciphertext: encryptedGroupInfo)
        return try GroupInfo(tlsEncoded: plaintext)
    }

    /// Encrypts a GroupInfo and the GroupSecrets for each new member into a Welcome.
    public static func seal(suite: CipherSuite, groupInfo: GroupInfo, joinerSecret: [UInt8], pskSecret: [UInt8],
                            recipients: [(keyPackage: KeyPackage, secrets: GroupSecrets)]) throws -> Welcome {
        let welcomeSecret = try EpochSecrets.welcomeSecret(suite: suite, joinerSecret: joinerSecret, pskSecret: pskSecret)
        let (key, nonce) = try EpochSecrets.welcomeKeyAndNonce(suite: suite, welcomeSecret: welcomeSecret)
        let encryptedGroupInfo = try suite.aead.seal(key: key, nonce: nonce, aad: [], plaintext: groupInfo.tlsEncoded)
        let encryption = suite.labeledEncryption(label: "Welcome", context: encryptedGroupInfo)
        let entries = try recipients.map { recipient in
            EncryptedGroupSecrets(
                newMember: recipient.keyPackage.reference(suite: suite),
                encryptedGroupSecrets: try encryption.encrypt(to: recipient.keyPackage.initKey, plaintext: recipient.secrets.tlsEncoded))
        }
        return Welcome(cipherSuite: suite.id, secrets: entries, encryptedGroupInfo: encryptedGroupInfo)
    }
}
