/// A signed, unencrypted handshake or application message (RFC 9420 §6.2).
public struct PublicMessage: Hashable, Sendable, TLSCodable {
    /// The content.
    public var content: FramedContent
    /// Signature and confirmation tag.
    public var auth: FramedContentAuthData
    /// `MAC(membership_key, AuthenticatedContentTBM)`; present exactly for member senders.
    public var membershipTag: [UInt8]?

    /// Creates a public message.
    public init(content: FramedContent, auth: FramedContentAuthData, membershipTag: [UInt8]?) {
        self.content = content
        self.auth = auth
        self.membershipTag = membershipTag
    }

    /// Encodes the message.
    public func encode(to writer: inout TLSWriter) {
        content.encode(to: &writer)
        auth.encode(to: &writer)
        if let membershipTag { writer.writeOpaque(membershipTag) }
    }

    /// Decodes the message.
    public init(from reader: inout TLSReader) throws {
        content = try FramedContent(from: &reader)
        auth = try FramedContentAuthData(from: &reader, contentType: content.contentType)
        if case .member = content.sender {
            membershipTag = try reader.readOpaque()
        } else {
            membershipTag = nil
        }
    }

    /// The authenticated content carried by the message.
    public var authenticatedContent: AuthenticatedContent {
        AuthenticatedContent(wireFormat: .publicMessage, content: content, auth: auth)
    }

    /// `MAC(membership_key, AuthenticatedContentTBM)` for this message's content and auth data.
    public static func membershipTag(suite: CipherSuite, membershipKey: [UInt8], content: AuthenticatedContent, context: GroupContext) -> [UInt8] {
        var tbm = TLSWriter()
        tbm.writeBytes(content.content.toBeSigned(wireFormat: .publicMessage, context: context))
        content.auth.encode(to: &tbm)
        return suite.mac(key: membershipKey, data: tbm.bytes)
    }
}
