import KithCanonical

/// "I have sequence 0...have_seq and will send message_count messages" (spec 8.3, 40 bytes:
/// feed_id 32 | have_seq u32 | message_count u32).
public struct SyncOffer: Hashable, Sendable, FixedSizeWireStructure {
    /// The exact encoded length.
    public static var wireLength: Int { SyncLimits.offerLength }

    /// The feed being offered, as this link's blinded tag (docs/sync.md 9b).
    public var feedTag: SyncFeedTag
    /// The sender's latest sequence of the feed (0xFFFFFFFF when it holds nothing).
    public var haveSequence: UInt32
    /// How many messages of this feed follow.
    public var messageCount: UInt32

    /// Creates an offer.
    public init(feedTag: SyncFeedTag, haveSequence: UInt32, messageCount: UInt32) {
        self.feedTag = feedTag
        self.haveSequence = haveSequence
        self.messageCount = messageCount
    }

    /// Appends the wire bytes.
    public func write(to writer: inout ByteWriter) {
        feedTag.write(to: &writer)
        writer.write(haveSequence)
        writer.write(messageCount)
    }

    /// Reads the fields from a bounded cursor.
    public init(reading reader: inout ByteReader) throws(SyncWireError) {
        do {
            feedTag = try SyncFeedTag(reading: &reader)
            haveSequence = try reader.readUInt32()
            messageCount = try reader.readUInt32()
        } catch { throw .malformed(error) }
    }
}
