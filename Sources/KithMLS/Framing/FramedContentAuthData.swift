/// The signature and, for commits, the confirmation tag of framed content (RFC 9420 §6.1).
public struct FramedContentAuthData: Hashable, Sendable {
    /// `SignWithLabel(., "FramedContentTBS", FramedContentTBS)`.
    public var signature: [UInt8]
    /// The confirmation tag; present exactly for commits.
    public var confirmationTag: [UInt8]?

    /// Creates auth data.
    public init(signature: [UInt8], confirmationTag: [UInt8]?) {
        self.signature = signature
        self.confirmationTag = confirmationTag
    }

    /// Encodes the auth data (the tag only when present, i.e. for commits).
    public func encode(to writer: inout TLSWriter) {
        writer.writeOpaque(signature)
        if let confirmationTag { writer.writeOpaque(confirmationTag) }
    }

    /// Decodes auth data for content of `contentType`.
    public init(from reader: inout TLSReader, contentType: ContentType) throws {
        signature = try reader.readOpaque()
        confirmationTag = contentType == .commit ? try reader.readOpaque() : nil
    }
}
