import KithCanonical

/// "Beyond my `have_seq` I already hold these sequences of this feed" (Kith record 0x06):
///
///     feed_id 32 | range_count u8 (1...255) | (first_seq u32 | last_seq u32) × range_count
///
/// Sent right after the ``SyncRequest`` of the same feed (several records may follow one request
/// when the ranges do not fit one). Each range is inclusive; ranges ascend and are separated by
/// at least one missing sequence; `0xFFFFFFFF` never appears. The serving side leaves every
/// sequence in these ranges out of its offer, so an interrupted newest-first transfer resumes
/// without re-sending what the receiver holds ahead of a gap (docs/sync.md, section 9).
public struct SyncHeldRanges: Hashable, Sendable {
    /// The feed these ranges belong to, as this link's blinded tag (docs/sync.md 9b).
    public var feedTag: SyncFeedTag
    /// Inclusive, ascending, non-adjacent ranges of held sequences (1...255 of them).
    public var ranges: [ClosedRange<UInt32>]

    /// Creates a record without checking it; ``encoded()`` and the decoder apply the rules.
    public init(feedTag: SyncFeedTag, ranges: [ClosedRange<UInt32>]) {
        self.feedTag = feedTag
        self.ranges = ranges
    }

    /// Encoded size (without the kind byte): 33 + 8 per range.
    public var encodedLength: Int { SyncLimits.heldRangesHeaderLength + SyncLimits.heldRangeLength * ranges.count }

    /// Checks the structural rules.
    /// - Throws: ``SyncWireError/invalidHeldRanges(_:)``.
    public func validate() throws(SyncWireError) {
        guard (1...SyncLimits.maximumHeldRangesPerRecord).contains(ranges.count) else {
            throw .invalidHeldRanges("range_count \(ranges.count) outside 1...\(SyncLimits.maximumHeldRangesPerRecord)")
        }
        var previousLast: UInt32?
        for range in ranges {
            guard range.upperBound != SyncLimits.haveNothing else { throw .invalidHeldRanges("sequence 0xFFFFFFFF is reserved") }
            if let previousLast, range.lowerBound <= previousLast &+ 1 {
                throw .invalidHeldRanges("ranges must ascend with a gap between them")
            }
            previousLast = range.upperBound
        }
    }

    /// Appends the wire bytes (kind byte not included).
    /// - Throws: ``SyncWireError/invalidHeldRanges(_:)`` for a record that breaks the rules.
    public func write(to writer: inout ByteWriter) throws(SyncWireError) {
        try validate()
        feedTag.write(to: &writer)
        writer.write(UInt8(ranges.count))
        for range in ranges {
            writer.write(range.lowerBound)
            writer.write(range.upperBound)
        }
    }

    /// The wire bytes (kind byte not included).
    public func encoded() throws(SyncWireError) -> [UInt8] {
        var writer = ByteWriter(capacity: encodedLength)
        try write(to: &writer)
        return writer.bytes
    }

    /// Decodes exactly one record's bytes.
    public init(decoding bytes: [UInt8]) throws(SyncWireError) {
        var reader = ByteReader(bytes)
        try self.init(reading: &reader)
        do { try reader.expectEnd() } catch { throw .malformed(error) }
    }

    /// Reads a record from a bounded cursor and checks its rules.
    public init(reading reader: inout ByteReader) throws(SyncWireError) {
        do {
            feedTag = try SyncFeedTag(reading: &reader)
            let count = Int(try reader.readUInt8())
            var ranges: [ClosedRange<UInt32>] = []
            ranges.reserveCapacity(count)
            for _ in 0..<count {
                let first = try reader.readUInt32()
                let last = try reader.readUInt32()
                guard first <= last else { throw SyncWireError.invalidHeldRanges("first_seq \(first) above last_seq \(last)") }
                ranges.append(first...last)
            }
            self.ranges = ranges
        } catch let error as ByteReaderError {
            throw .malformed(error)
        } catch let error as SyncWireError {
            throw error
        } catch {
            throw .invalidHeldRanges("\(error)")
        }
        try validate()
    }

    /// Splits sorted, non-adjacent ranges into records that each fit `plaintextCapacity` bytes
    /// (kind byte included) and hold at most 255 ranges.
    public static func records(feedTag: SyncFeedTag, ranges: [ClosedRange<UInt32>], plaintextCapacity: Int) -> [SyncHeldRanges] {
        let fitting = (plaintextCapacity - 1 - SyncLimits.heldRangesHeaderLength) / SyncLimits.heldRangeLength
        let perRecord = max(1, min(SyncLimits.maximumHeldRangesPerRecord, fitting))
        return stride(from: 0, to: ranges.count, by: perRecord).map { start in
            SyncHeldRanges(feedTag: feedTag, ranges: Array(ranges[start..<min(start + perRecord, ranges.count)]))
        }
    }

    /// Coalesces sequences (any order, duplicates allowed) into ascending non-adjacent ranges.
    public static func ranges(of sequences: some Sequence<UInt32>) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for sequence in Set(sequences).sorted() where sequence != SyncLimits.haveNothing {
            if let last = result.last, last.upperBound &+ 1 == sequence {
                result[result.count - 1] = last.lowerBound...sequence
            } else {
                result.append(sequence...sequence)
            }
        }
        return result
    }
}
