/// Rebuilds link messages from link frames, discarding messages damaged by a lost frame.
public struct LinkSegmentReassembler: Sendable {
    private var expectedCounter: UInt8 = 0
    private var buffer: [UInt8] = []
    private var inMessage = false
    /// Link messages discarded because a frame was missing.
    public private(set) var damagedMessages = 0
    /// Frames seen missing (counter gaps, modulo 64).
    public private(set) var missingFrames = 0
    private let maximumLength: Int

    /// Creates a reassembler refusing messages longer than `maximumLength`.
    public init(maximumLength: Int = SyncLimits.maximumLinkMessageLength) {
        self.maximumLength = maximumLength
    }

    /// Accepts one link frame; returns a link message when this frame completed one.
    /// - Throws: ``SecureLinkError/emptyLinkFrame`` or ``SecureLinkError/linkMessageTooLong(_:)``.
    public mutating func accept(_ frame: [UInt8]) throws(SecureLinkError) -> [UInt8]? {
        guard let header = frame.first else { throw .emptyLinkFrame }
        let counter = header & LinkSegmenter.counterMask
        if counter != expectedCounter {
            missingFrames += Int((counter &- expectedCounter) & LinkSegmenter.counterMask)
            if inMessage { damagedMessages += 1 }
            inMessage = false
            buffer = []
        }
        expectedCounter = (counter &+ 1) & LinkSegmenter.counterMask
        if header & LinkSegmenter.firstFlag != 0 {
            if inMessage { damagedMessages += 1 }
            inMessage = true
            buffer = []
        }
        guard inMessage else { return nil }
        guard buffer.count + frame.count - 1 <= maximumLength else {
            inMessage = false
            buffer = []
            throw .linkMessageTooLong(maximumLength)
        }
        buffer += frame.dropFirst()
        guard header & LinkSegmenter.lastFlag != 0 else { return nil }
        inMessage = false
        defer { buffer = [] }
        return buffer
    }
}
