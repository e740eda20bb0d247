/// Optional features a peer supports, exchanged in ``SyncHello`` (u16, big-endian bit set).
///
/// A feature is used on a link only when both Hellos carry its bit; unknown bits are ignored.
public struct SyncCapabilities: OptionSet, Hashable, Sendable {
    /// The raw bit set.
    public let rawValue: UInt16

    /// Wraps a raw bit set.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// Bit 0 (0x0001): message bodies carry a 1-byte encoding flag and envelopes may be zstd level 1
    /// compressed (spec 8.4). Never applied to blobs.
    public static let zstdEnvelopes = SyncCapabilities(rawValue: 0x0001)

    /// Bit 1 (0x0002), with bit 0: envelopes are compressed against the built-in
    /// ``EnvelopeDictionary/version1`` (body flag 0x02).
    public static let zstdEnvelopeDictionary = SyncCapabilities(rawValue: 0x0002)

    /// Bit 2 (0x0004): requests may be followed by ``SyncHeldRanges`` records (0x06), so the
    /// serving side skips what the receiver already holds ahead of a gap.
    public static let heldRanges = SyncCapabilities(rawValue: 0x0004)

    /// Bit 3 (0x0008): after the envelopes, the sides exchange wanted blobs (records 0x07-0x0A).
    /// Leave it out of the Hello to skip blobs (`--no-blobs`).
    public static let blobs = SyncCapabilities(rawValue: 0x0008)

    /// Bit 4 (0x0010): before the sync session both sides run a side phase of application
    /// messages (records 0x0B), such as the inner circle's one-time pool exchange (docs/TDF.md).
    /// Not in ``all``: offered only by callers that run ``SyncSidePhase`` (Kith's `SyncAgent`).
    public static let sidePhase = SyncCapabilities(rawValue: 0x0010)

    /// Bit 5 (0x0020): before the side phase, both sides run the card phase (records 0x0B): a side
    /// that scanned the peer's compact card asks for the full card it commits to (docs/FEED-FORMAT.md
    /// 11.9). Not in ``all``: offered only by callers that run it (Kith's `SyncAgent`).
    public static let cardPhase = SyncCapabilities(rawValue: 0x0020)

    /// Every capability this implementation understands.
    public static let all: SyncCapabilities = [.zstdEnvelopes, .zstdEnvelopeDictionary, .heldRanges, .blobs]

    /// What this build offers in its Hello: ``all``, less the zstd bits where the platform has
    /// no libzstd (``EnvelopeCompression/isAvailable``), so compression is negotiated away.
    public static var supported: SyncCapabilities {
        EnvelopeCompression.isAvailable ? all : all.subtracting([.zstdEnvelopes, .zstdEnvelopeDictionary])
    }
}
