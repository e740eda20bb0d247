/// Encryption and decryption of PrivateMessages with the epoch's secret tree (RFC 9420 §6.3).
public enum PrivateMessageProtection {
    /// Encrypts signed content sent by a member, advancing the sender's ratchet in `secretTree`.
    ///
    /// - Parameters:
    ///   - paddingLength: zero bytes appended to the plaintext to hide its length.
    ///   - reuseGuard: four bytes XORed into the nonce; random when nil.
    public static func encrypt(_ content: AuthenticatedContent, suite: CipherSuite, secretTree: inout SecretTree,
                               senderDataSecret: [UInt8], paddingLength: Int = 0, reuseGuard: [UInt8]? = nil) throws -> PrivateMessage {
        guard case .member(let leaf) = content.content.sender else { throw MLSFramingError.senderNotMember }
        guard content.wireFormat == .privateMessage else { throw MLSFramingError.contentTypeNotAllowed }
        let key = try secretTree.nextKey(leaf: leaf, kind: RatchetKind(contentType: content.content.contentType))
        let guardBytes = reuseGuard ?? (0..<MLSLimits.reuseGuardLength).map { _ in UInt8.random(in: 0...255) }
        var plaintext = TLSWriter()
        content.content.body.encode(to: &plaintext)
        content.auth.encode(to: &plaintext)
        plaintext.writeBytes([UInt8](repeating: 0, count: max(0, paddingLength)))
        var message = PrivateMessage(groupID: content.content.groupID, epoch: content.content.epoch,
                                     contentType: content.content.contentType, authenticatedData: content.content.authenticatedData,
                                     encryptedSenderData: [], ciphertext: [])
        message.ciphertext = try suite.aead.seal(key: key.key, nonce: applyGuard(key.nonce, guardBytes), aad: message.contentAAD,
                                                 plaintext: plaintext.bytes)
        let senderData = SenderData(leafIndex: leaf, generation: key.generation, reuseGuard: guardBytes)
        let senderKey = try SenderDataKey(suite: suite, senderDataSecret: senderDataSecret, ciphertext: message.ciphertext)
        message.encryptedSenderData = try suite.aead.seal(key: senderKey.key, nonce: senderKey.nonce, aad: message.senderDataAAD,
                                                          plaintext: senderData.tlsEncoded)
        return message
    }

    /// Decrypts a PrivateMessage; the caller verifies the signature against the sender's leaf (and, for commits, the confirmation tag).
    public static func decrypt(_ message: PrivateMessage, suite: CipherSuite, secretTree: inout SecretTree,
                               senderDataSecret: [UInt8]) throws -> AuthenticatedContent {
        let senderKey = try SenderDataKey(suite: suite, senderDataSecret: senderDataSecret, ciphertext: message.ciphertext)
        let senderBytes = try suite.aead.open(key: senderKey.key, nonce: senderKey.nonce, aad: message.senderDataAAD,
                                              ciphertext: message.encryptedSenderData)
        let senderData = try SenderData(tlsEncoded: senderBytes)
        // Work on a copy so a failed decryption does not consume the key.
        var tree = secretTree
        let key = try tree.key(leaf: senderData.leafIndex, kind: RatchetKind(contentType: message.contentType), generation: senderData.generation)
        let plaintext = try suite.aead.open(key: key.key, nonce: applyGuard(key.nonce, senderData.reuseGuard), aad: message.contentAAD,
                                            ciphertext: message.ciphertext)
        var reader = TLSReader(plaintext)
        let body = try FramedContentBody.decode(type: message.contentType, from: &reader)
        let auth = try FramedContentAuthData(from: &reader, contentType: message.contentType)
        let padding = try reader.readBytes(reader.remaining)
        guard padding.allSatisfy({ $0 == 0 }) else { throw MLSFramingError.nonZeroPadding }
        secretTree = tree
        let content = FramedContent(groupID: message.groupID, epoch: message.epoch, sender: .member(senderData.leafIndex),
                                    authenticatedData: message.authenticatedData, body: body)
        return AuthenticatedContent(wireFormat: .privateMessage, content: content, auth: auth)
    }

    private static func applyGuard(_ nonce: [UInt8], _ reuseGuard: [UInt8]) -> [UInt8] {
        var out = nonce
        for index in 0..<min(MLSLimits.reuseGuardLength, reuseGuard.count, out.count) { out[index] ^= reuseGuard[index] }
        return out
    }
}
