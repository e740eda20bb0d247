import KithCanonical

/// "I have sequence 0...have_seq and will send message_count messages" (spec 8.3, 40 bytes:
/// feed_id 32 | have_seq u32 | message_count u32).
public struct SyncOffer: Hashable, Sendable {
    /// The feed being offered.
    public var feedID: SyncFeedID
    /// The sender's latest sequence of the feed (0xFFFFFFFF when it holds nothing).
    public var haveSequence: UInt32
    /// How many messages of this feed follow.
    public var messageCount: UInt32

    /// Creates an offer.
    public init(feedID: SyncFeedID, haveSequence: UInt32, messageCount: UInt32) {
        self.feedID = feedID
        self.haveSequence = haveSequence
        self.messageCount = messageCount
    }

    /// The 40 wire bytes.
    public var encoded: [UInt8] {
        var writer = ByteWriter(capacity: SyncLimits.offerLength)
        write(to: &writer)
        return writer.bytes
    }

    func write(to writer: inout ByteWriter) {
        writer.write(bytes: feedID.bytes)
        writer.write(haveSequence)
        writer.write(messageCount)
    }

    /// Decodes exactly 40 bytes.
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader)
        do { try reader.expectEnd() } catch { throw .malformed(error) }
    }

    init(reading reader: inout ByteReader) throws(SyncWireError) {
        do {
            feedID = try SyncFeedID(reading: &reader)
            haveSequence = try reader.readUInt32()
            messageCount = try reader.readUInt32()
        } catch { throw .malformed(error) }
    }
}
