import KithCanonical

/// A message of the card phase of a sync link (docs/FEED-FORMAT.md 11.9, "The full card over the first secure
/// link"): a side that scanned the peer's compact card asks for the full card it commits to, and the peer answers
/// with the card it kept under that commitment.
///
/// ```
/// 0x01 | flags u8 (bit 0: want; other bits zero) | [commitment 32, iff want]    opening, each side, once
/// 0x02 | u16 card_length | card (1...4,096)                                     answer: the committed card
/// 0x03                                                                          answer: no card kept for it
/// ```
public enum CardPhaseMessage: Sendable, Hashable {
    /// The opening: the commitment of the full card this side wants, or nil when it wants nothing.
    case opening(wanted: [UInt8]?)
    /// The full card kept under the requested commitment.
    case card([UInt8])
    /// No card is kept under the requested commitment (it was never made here, or was pruned).
    case noCard

    /// The largest card carried (a full card is about 1,460 bytes).
    public static let maximumCardLength = 4_096

    /// The message's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter()
        switch self {
        case .opening(let wanted):
            writer.write(UInt8(0x01))
            if let wanted {
                writer.write(UInt8(0x01))
                writer.write(bytes: wanted)
            } else {
                writer.write(UInt8(0x00))
            }
        case .card(let card):
            writer.write(UInt8(0x02))
            writer.write(UInt16(clamping: card.count))
            writer.write(bytes: card)
        case .noCard:
            writer.write(UInt8(0x03))
        }
        return writer.bytes
    }

    /// Reads one message, bounded and exact (no trailing byte).
    /// - Throws: ``CardPhaseError`` naming what is wrong.
    public init(decoding bytes: [UInt8]) throws(CardPhaseError) {
        var reader = ByteReader(bytes)
        let kind = try Self.read { () throws(ByteReaderError) in try reader.readUInt8() }
        switch kind {
        case 0x01:
            let flags = try Self.read { () throws(ByteReaderError) in try reader.readUInt8() }
            switch flags {
            case 0x00: self = .opening(wanted: nil)
            case 0x01: self = .opening(wanted: try Self.read { () throws(ByteReaderError) in try reader.readBytes(32) })
            default: throw .unknownFlags(flags)
            }
        case 0x02:
            let length = Int(try Self.read { () throws(ByteReaderError) in try reader.readUInt16() })
            guard (1...Self.maximumCardLength).contains(length) else { throw .cardLength(length) }
            self = .card(try Self.read { () throws(ByteReaderError) in try reader.readBytes(length) })
        case 0x03:
            self = .noCard
        default:
            throw .unknownKind(kind)
        }
        try Self.read { () throws(ByteReaderError) in try reader.expectEnd() }
    }

    private static func read<T>(_ body: () throws(ByteReaderError) -> T) throws(CardPhaseError) -> T {
        do throws(ByteReaderError) { return try body() } catch { throw .malformed(error) }
    }
}
