/// A non-member allowed to send proposals, listed in the `external_senders` GroupContext extension (RFC 9420 §12.1.8.1).
public struct ExternalSender: Hashable, Sendable, TLSCodable {
    /// The sender's signature public key.
    public var signatureKey: [UInt8]
    /// The sender's credential.
    public var credential: Credential

    /// Creates an entry.
    public init(signatureKey: [UInt8], credential: Credential) {
        self.signatureKey = signatureKey
        self.credential = credential
    }

    /// Encodes the entry.
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(signatureKey)
        credential.encode(to: &writer)
    }

    /// Decodes the entry.
    public init(from reader: inout TLSReader) throws {
        signatureKey = try reader.readOpaque()
        credential = try Credential(from: &reader)
    }

    /// The `external_senders` extension carrying `senders`.
    public static func extensionFor(_ senders: [ExternalSender]) -> Extension {
        var writer = TLSWriter()
        writer.writeVector(senders)
        return Extension(type: .externalSenders, data: writer.bytes)
    }

    /// The senders listed in an `external_senders` extension payload.
    public static func decodeList(_ data: [UInt8]) throws -> [ExternalSender] {
        var reader = TLSReader(data)
        let senders = try reader.readVector(of: ExternalSender.self)
        try reader.expectEnd()
        return senders
    }

    /// Signs `proposal` as external sender `index` for the given group and epoch, as a PublicMessage (RFC 9420 §12.1.8).
    public static func propose(_ proposal: Proposal, groupID: [UInt8], epoch: UInt64, senderIndex: UInt32, suite: CipherSuite,
                               signaturePrivateKey: [UInt8], authenticatedData: [UInt8] = []) throws -> MLSMessage {
        switch proposal {
        case .add, .remove, .preSharedKey, .reinit, .groupContextExtensions: break
        case .update, .externalInit: throw MLSGroupError.invalidSender("external senders cannot send \(proposal.type.rawValue) proposals")
        }
        let framed = FramedContent(groupID: groupID, epoch: epoch, sender: .external(senderIndex), authenticatedData: authenticatedData,
                                   body: .proposal(proposal))
        let content = try AuthenticatedContent.sign(wireFormat: .publicMessage, content: framed, context: nil, suite: suite,
                                                    signaturePrivateKey: signaturePrivateKey)
        return MLSMessage(body: .publicMessage(PublicMessage(content: content.content, auth: content.auth, membershipTag: nil)))
    }
}
