/// Splits link messages (handshake messages and sealed frames) into link frames.
///
/// Every link frame starts with a 1-byte segment header:
///
///     bit 7  FIRST  this segment starts a link message
///     bit 6  LAST   this segment ends a link message
///     bits 0-5      segment counter, +1 (mod 64) for every link frame sent on the link
///
/// The counter lets the receiver notice lost frames and discard a damaged message instead of
/// handing corrupt bytes to Noise.
public struct LinkSegmenter: Sendable {
    /// FIRST flag.
    public static let firstFlag: UInt8 = 0x80
    /// LAST flag.
    public static let lastFlag: UInt8 = 0x40
    /// Counter mask.
    public static let counterMask: UInt8 = 0x3F

    private var counter: UInt8 = 0

    /// Creates a segmenter starting at counter 0.
    public init() {}

    /// The link frames of one message.
    public mutating func segments(of message: [UInt8], mtu: Int) -> [[UInt8]] {
        let capacity = max(1, mtu - SyncLimits.segmentHeaderLength)
        var frames: [[UInt8]] = []
        var start = 0
        repeat {
            let end = min(start + capacity, message.count)
            var header = counter & Self.counterMask
            if start == 0 { header |= Self.firstFlag }
            if end == message.count { header |= Self.lastFlag }
            frames.append([header] + message[start..<end])
            counter = (counter &+ 1) & Self.counterMask
            start = end
        } while start < message.count
        return frames
    }
}
