import KithMLS

/// The MLS message inside a `group:` envelope's `content_enc`, read without keys: what the group layer needs to know
/// before it decides to process it now or hold it (its epoch, whether it is a commit).
public struct GroupWireMessage: Sendable {
    /// The decoded MLS message.
    public let message: MLSMessage
    /// The epoch it was sent in.
    public let epoch: UInt64
    /// The MLS content type (application, proposal, commit).
    public let contentType: ContentType

    /// Largest accepted MLS message (the envelope's own bound is larger; a 1,000-member commit with a path is ~70 KB).
    public static let maxBytes = 512 * 1024

    /// Largest handshake (commit, proposal or Welcome) Kith writes: its `group_event` content (spec 5.6, the MLS
    /// message in base64url) must stay within the 60,000-byte content bound, and its envelope within 64 KiB. A bigger
    /// add is split into several commits.
    public static let maxHandshakeBytes = 44_000

    /// Largest ratchet tree (TLS-encoded) a Welcome carries in its GroupInfo: with the group context and its metadata
    /// (up to 8 KB) the Welcome stays under ``maxHandshakeBytes``. A larger tree (a group of a few hundred members)
    /// travels out of band, as an encrypted blob named by an `mls_group_tree` message (docs/GROUPS.md, "Size").
    public static let maxInBandTreeBytes = 30_000

    /// Parses `content_enc` bytes: exactly one MLSMessage, a PrivateMessage of `group`.
    public init(_ bytes: [UInt8], group: GroupID) throws(GroupError) {
        guard bytes.count <= Self.maxBytes else { throw .malformedMessage("larger than \(Self.maxBytes) bytes") }
        let decoded: MLSMessage
        do { decoded = try MLSMessage(tlsEncoded: bytes) } catch { throw .malformedMessage("\(error)") }
        guard case .privateMessage(let privateMessage) = decoded.body else {
            throw .malformedMessage("a group message must be an MLS PrivateMessage, not \(decoded.body.wireFormat.rawValue)")
        }
        guard privateMessage.groupID == group.rawBytes else { throw .malformedMessage("its MLS group id is not the audience's group") }
        message = decoded
        epoch = privateMessage.epoch
        contentType = privateMessage.contentType
    }

    /// True for proposals and commits.
    public var isHandshake: Bool { contentType != .application }
}
