/// Sending application messages (RFC 9420 §15).
extension GroupState {
    /// Encrypts application data as a PrivateMessage from this member, advancing its application ratchet.
    public mutating func encryptApplication(_ data: [UInt8], authenticatedData: [UInt8] = [], paddingLength: Int = 0) throws -> MLSMessage {
        guard reinitialization == nil else { throw MLSGroupError.groupReinitialized }
        let framed = FramedContent(groupID: context.groupID, epoch: context.epoch, sender: .member(ownLeaf), authenticatedData: authenticatedData,
                                   body: .application(data))
        let content = try AuthenticatedContent.sign(wireFormat: .privateMessage, content: framed, context: context, suite: suite,
                                                    signaturePrivateKey: signaturePrivateKey)
        let message = try PrivateMessageProtection.encrypt(content, suite: suite, secretTree: &secretTree, senderDataSecret: secrets.senderDataSecret,
                                                           paddingLength: paddingLength)
        return MLSMessage(body: .privateMessage(message))
    }

    /// `MLS-Exporter(label, context, length)` of the current epoch.
    public func export(label: String, context exporterContext: [UInt8], length: Int) throws -> [UInt8] {
        try secrets.export(label: label, context: exporterContext, length: length)
    }
}
