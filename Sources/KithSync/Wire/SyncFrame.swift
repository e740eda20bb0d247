import KithCanonical

/// One record of the sync protocol, as carried inside a sealed link frame.
///
/// The spec's structures carry no type byte, so each record starts with a 1-byte kind:
///
/// | kind | record | body |
/// |---|---|---|
/// | 0x00 | padding | the rest of the plaintext, all zero bytes |
/// | 0x01 | ``SyncRequest`` | 36 bytes |
/// | 0x02 | ``SyncOffer`` | 40 bytes |
/// | 0x03 | ``SyncChunk`` | length u16, then the chunk (37...65535 bytes) |
/// | 0x04 | ``SyncAck`` | 33 bytes |
/// | 0x05 | done | nothing: the sender has no more requests or offers for this session |
/// | 0x06 | ``SyncHeldRanges`` | 33 + 8 per range (capability ``SyncCapabilities/heldRanges``) |
/// | 0x07 | ``SyncBlobWant`` | 36 bytes (capability ``SyncCapabilities/blobs``) |
/// | 0x08 | blob chunk | length u16, then a ``SyncChunk`` whose id is the blob hash (raw data, never compressed) |
/// | 0x09 | blob missing | blob hash 32: not held here, or larger than asked |
/// | 0x0A | blobs done | nothing: the sender has sent all its blob wants |
/// | 0x0B | side chunk | length u16, then a ``SyncChunk`` of a side-phase message, id = its SHA-256 (capability ``SyncCapabilities/sidePhase``, only before the session) |
///
/// Several records may share one sealed frame.
public enum SyncFrame: Hashable, Sendable {
    /// A ``SyncRequest``.
    case request(SyncRequest)
    /// A ``SyncOffer``.
    case offer(SyncOffer)
    /// A ``SyncChunk``.
    case chunk(SyncChunk)
    /// A ``SyncAck``.
    case ack(SyncAck)
    /// The sender has nothing more to request or offer in this session.
    case done
    /// Sequences the sender holds beyond its request's `have_seq`.
    case held(SyncHeldRanges)
    /// A blob the sender wants.
    case blobWant(SyncBlobWant)
    /// A fragment of a wanted blob (its `message_id` is the blob hash).
    case blobChunk(SyncChunk)
    /// A wanted blob the sender does not hold or will not send (too large).
    case blobMissing(SyncBlobID)
    /// The sender has sent all its blob wants.
    case blobsDone
    /// A fragment of a side-phase message (``SyncSidePhase``); its `message_id` is the message's SHA-256.
    case sideChunk(SyncChunk)

    /// The kind byte of each record.
    public enum Kind: UInt8, Sendable {
        /// Padding to the end of the plaintext.
        case padding = 0x00
        /// ``SyncRequest``.
        case request = 0x01
        /// ``SyncOffer``.
        case offer = 0x02
        /// ``SyncChunk``.
        case chunk = 0x03
        /// ``SyncAck``.
        case ack = 0x04
        /// End of requests and offers.
        case done = 0x05
        /// ``SyncHeldRanges``.
        case held = 0x06
        /// ``SyncBlobWant``.
        case blobWant = 0x07
        /// A blob fragment.
        case blobChunk = 0x08
        /// A wanted blob that will not come.
        case blobMissing = 0x09
        /// End of blob wants.
        case blobsDone = 0x0A
        /// A side-phase message fragment.
        case sideChunk = 0x0B
    }

    /// The record's kind.
    public var kind: Kind {
        switch self {
        case .request: .request
        case .offer: .offer
        case .chunk: .chunk
        case .ack: .ack
        case .done: .done
        case .held: .held
        case .blobWant: .blobWant
        case .blobChunk: .blobChunk
        case .blobMissing: .blobMissing
        case .blobsDone: .blobsDone
        case .sideChunk: .sideChunk
        }
    }

    /// Encoded size of the record, kind byte included.
    public var encodedLength: Int {
        switch self {
        case .request: 1 + SyncLimits.requestLength
        case .offer: 1 + SyncLimits.offerLength
        case .chunk(let chunk), .blobChunk(let chunk), .sideChunk(let chunk): SyncLimits.chunkRecordPrefixLength + chunk.encodedLength
        case .ack: 1 + SyncLimits.ackLength
        case .done, .blobsDone: 1
        case .held(let held): 1 + held.encodedLength
        case .blobWant: 1 + SyncLimits.blobWantLength
        case .blobMissing: 1 + SyncLimits.idLength
        }
    }

    /// Appends the record to a writer.
    /// - Throws: ``SyncWireError`` for a chunk that breaks the structural rules.
    public func write(to writer: inout ByteWriter) throws(SyncWireError) {
        writer.write(kind.rawValue)
        switch self {
        case .request(let request): request.write(to: &writer)
        case .offer(let offer): offer.write(to: &writer)
        case .ack(let ack): ack.write(to: &writer)
        case .done, .blobsDone: break
        case .held(let held): try held.write(to: &writer)
        case .blobWant(let want): want.write(to: &writer)
        case .blobMissing(let blob): writer.write(bytes: blob.bytes)
        case .chunk(let chunk), .blobChunk(let chunk), .sideChunk(let chunk):
            guard !chunk.data.isEmpty else { throw .emptyChunkData }
            guard chunk.totalChunks > 0 else { throw .zeroTotalChunks }
            guard chunk.chunkIndex < chunk.totalChunks else {
                throw .chunkIndexOutOfRange(index: chunk.chunkIndex, total: chunk.totalChunks)
            }
            guard chunk.encodedLength <= Int(UInt16.max) else { throw .chunkTooLong(chunk.encodedLength) }
            writer.write(UInt16(chunk.encodedLength))
            chunk.write(to: &writer)
        }
    }

    /// The encoded record.
    public func encoded() throws(SyncWireError) -> [UInt8] {
        var writer = ByteWriter(capacity: encodedLength)
        try write(to: &writer)
        return writer.bytes
    }

    /// Decodes every record of a plaintext; a padding record ends the list.
    /// - Throws: ``SyncWireError`` for an unknown kind, a malformed record or non-zero padding.
    public static func decodeAll(_ plaintext: [UInt8]) throws(SyncWireError) -> [SyncFrame] {
        var reader = ByteReader(plaintext)
        var frames: [SyncFrame] = []
        while !reader.isAtEnd {
            guard let frame = try decodeNext(&reader) else { break }
            frames.append(frame)
        }
        return frames
    }

    /// Decodes one record; returns nil after consuming valid padding.
    static func decodeNext(_ reader: inout ByteReader) throws(SyncWireError) -> SyncFrame? {
        let raw: UInt8
        do { raw = try reader.readUInt8() } catch { throw .malformed(error) }
        guard let kind = Kind(rawValue: raw) else { throw .unknownRecordKind(raw) }
        switch kind {
        case .padding:
            let padding = reader.readRemaining()
            guard padding.allSatisfy({ $0 == 0 }) else { throw .nonZeroPadding }
            return nil
        case .request: return .request(try SyncRequest(reading: &reader))
        case .offer: return .offer(try SyncOffer(reading: &reader))
        case .ack: return .ack(try SyncAck(reading: &reader))
        case .done: return .done
        case .blobsDone: return .blobsDone
        case .held: return .held(try SyncHeldRanges(reading: &reader))
        case .blobWant: return .blobWant(try SyncBlobWant(reading: &reader))
        case .blobMissing:
            do { return .blobMissing(try SyncBlobID(reading: &reader)) } catch { throw .malformed(error) }
        case .chunk, .blobChunk, .sideChunk:
            let length: Int
            do { length = Int(try reader.readUInt16()) } catch { throw .malformed(error) }
            guard length <= reader.remaining else {
                throw .malformed(.truncated(needed: length, available: reader.remaining, offset: reader.offset))
            }
            let chunk = try SyncChunk(reading: &reader, length: length)
            switch kind {
            case .chunk: return .chunk(chunk)
            case .blobChunk: return .blobChunk(chunk)
            default: return .sideChunk(chunk)
            }
        }
    }
}
