/// How full a contact's one-time prekey pool is.
public struct PrekeyPoolStatus: Sendable, Equatable {
    /// Unused prekeys left.
    public let remaining: Int
    /// Size of the most recently issued batch.
    public let lastBatchSize: Int

    /// Creates a status value.
    public init(remaining: Int, lastBatchSize: Int) {
        self.remaining = remaining
        self.lastBatchSize = lastBatchSize
    }

    /// True when fewer than ``RatchetConstants/lowWaterPercent`` percent of the last batch is left:
    /// time to hand the contact a fresh batch (in person or over the session).
    public var isBelowLowWater: Bool {
        remaining * 100 < lastBatchSize * RatchetConstants.lowWaterPercent
    }
}
