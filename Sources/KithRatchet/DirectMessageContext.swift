import KithCanonical
import KithIdentity

/// The envelope fields a direct message is bound to: the author's feed_id, the envelope sequence
/// and the audience string. They feed the nonce and the associated data, so a ciphertext cannot be
/// replayed under another envelope.
public struct DirectMessageContext: Sendable, Equatable {
    /// The author's feed_id (43 base64url characters).
    public let feedID: String
    /// The envelope's sequence number.
    public let sequence: UInt64
    /// The envelope's audience, e.g. `direct:{peer_feed_id}`.
    public let audience: String

    /// Validates and stores the envelope fields.
    ///
    /// - Throws: ``RatchetError/invalidFeedID(_:)`` or ``RatchetError/audienceTooLong(_:)``.
    public init(feedID: String, sequence: UInt64, audience: String) throws(RatchetError) {
        _ = try FeedID.parsed(feedID)
        let audienceLength = audience.utf8.count
        guard audienceLength <= RatchetConstants.maxAudienceLength else { throw .audienceTooLong(audienceLength) }
        self.feedID = feedID
        self.sequence = sequence
        self.audience = audience
    }

    /// The context of the direct message `feedID` sends to `peerFeedID` at `sequence`
    /// (audience `direct:{peerFeedID}`).
    public static func direct(from feedID: String, to peerFeedID: String, sequence: UInt64) throws(RatchetError) -> DirectMessageContext {
        _ = try FeedID.parsed(peerFeedID)
        return try DirectMessageContext(feedID: feedID, sequence: sequence, audience: "direct:" + peerFeedID)
    }

    /// The AEAD associated data:
    /// `header_bytes || feed_id_ascii (43) || uint64_be(sequence) || uint16_be(len(audience)) || audience_utf8`,
    /// where `header_bytes` are all bytes of the wire before the AEAD ciphertext.
    public func associatedData(headerBytes: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: headerBytes.count + 64 + audience.utf8.count)
        writer.write(bytes: headerBytes)
        writer.write(bytes: feedID.utf8)
        writer.write(sequence)
        writer.write(UInt16(audience.utf8.count))
        writer.write(bytes: audience.utf8)
        return writer.bytes
    }

    /// The nonce for this envelope (see ``RatchetKDF/nonce(sequence:feedID:)``).
    public var nonce: [UInt8] { RatchetKDF.nonce(sequence: sequence, feedID: feedID) }
}
