/// One entry of a feed in the form it replicates to a peer (``FeedStore/entries(of:above:limit:)``):
/// the envelope itself, or the signed stub that travels in place of a self message.
public struct PeerEntry: Hashable, Sendable {
    /// Its sequence in the feed.
    public let sequence: UInt32
    /// The canonical line sent to the peer (envelope or signed stub).
    public let line: [UInt8]
    /// The envelope `type` recorded at ingest (`messages.type`) when ``line`` is the envelope
    /// itself; nil when it is a stub (a stub carries no type). Sync schedules by it (spec 8.5)
    /// without parsing the line.
    public let type: String?

    /// Creates an entry.
    public init(sequence: UInt32, line: [UInt8], type: String?) {
        self.sequence = sequence
        self.line = line
        self.type = type
    }
}
