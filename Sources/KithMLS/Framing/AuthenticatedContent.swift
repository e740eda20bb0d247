/// Framed content with its wire format and authentication data (RFC 9420 §6.1).
public struct AuthenticatedContent: Hashable, Sendable, TLSCodable {
    /// The wire format the content was (or will be) sent in.
    public var wireFormat: WireFormat
    /// The content.
    public var content: FramedContent
    /// Signature and confirmation tag.
    public var auth: FramedContentAuthData

    /// Creates authenticated content.
    public init(wireFormat: WireFormat, content: FramedContent, auth: FramedContentAuthData) {
        self.wireFormat = wireFormat
        self.content = content
        self.auth = auth
    }

    /// Encodes the struct.
    public func encode(to writer: inout TLSWriter) {
        wireFormat.encode(to: &writer)
        content.encode(to: &writer)
        auth.encode(to: &writer)
    }

    /// Decodes the struct.
    public init(from reader: inout TLSReader) throws {
        wireFormat = try WireFormat(from: &reader)
        content = try FramedContent(from: &reader)
        auth = try FramedContentAuthData(from: &reader, contentType: content.contentType)
    }

    /// Signs `content` as `sender` (RFC 9420 §6.1); the confirmation tag is attached separately for commits.
    public static func sign(wireFormat: WireFormat, content: FramedContent, context: GroupContext?, suite: CipherSuite,
                            signaturePrivateKey: [UInt8], confirmationTag: [UInt8]? = nil) throws -> AuthenticatedContent {
        let signature = try suite.signWithLabel(privateKey: signaturePrivateKey, label: "FramedContentTBS",
                                                content: content.toBeSigned(wireFormat: wireFormat, context: context))
        return AuthenticatedContent(wireFormat: wireFormat, content: content,
                                    auth: FramedContentAuthData(signature: signature, confirmationTag: confirmationTag))
    }

    /// True when the signature verifies under `signerKey`.
    public func verifySignature(suite: CipherSuite, signerKey: [UInt8], context: GroupContext?) -> Bool {
        suite.verifyWithLabel(publicKey: signerKey, label: "FramedContentTBS",
                              content: content.toBeSigned(wireFormat: wireFormat, context: context), signature: auth.signature)
    }
}
