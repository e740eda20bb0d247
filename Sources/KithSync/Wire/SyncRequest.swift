import KithCanonical

/// "I have sequence 0...have_seq of this feed" (spec 8.3, 36 bytes: feed_id 32 | have_seq u32).
public struct SyncRequest: Hashable, Sendable, FixedSizeWireStructure {
    /// The exact encoded length.
    public static var wireLength: Int { SyncLimits.requestLength }

    /// The feed being asked for, as this link's blinded tag (docs/sync.md 9b).
    public var feedTag: SyncFeedTag
    /// The highest sequence the sender holds, or ``SyncLimits/haveNothing`` (0xFFFFFFFF).
    public var haveSequence: UInt32

    /// Creates a request.
    public init(feedTag: SyncFeedTag, haveSequence: UInt32) {
        self.feedTag = feedTag
        self.haveSequence = haveSequence
    }

    /// True when the sender holds nothing of the feed and asks for all of it.
    public var wantsEntireFeed: Bool { haveSequence == SyncLimits.haveNothing }

    /// Appends the wire bytes.
    public func write(to writer: inout ByteWriter) {
        feedTag.write(to: &writer)
        writer.write(haveSequence)
    }

    /// Reads the fields from a bounded cursor.
    public init(reading reader: inout ByteReader) throws(SyncWireError) {
        do {
            feedTag = try SyncFeedTag(reading: &reader)
            haveSequence = try reader.readUInt32()
        } catch { throw .malformed(error) }
    }
}
