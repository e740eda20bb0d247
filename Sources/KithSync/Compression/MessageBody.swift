import KithCanonical

/// The bytes a message's chunks carry.
///
/// Without the ``SyncCapabilities/zstdEnvelopes`` capability the body is the envelope itself
/// (spec 8.3). With it, the body starts with a 1-byte encoding flag (spec 8.4's "1-byte flag"):
///
///     0x00 | envelope                                  raw
///     0x01 | decompressed_size u32 | zstd frame        zstd level 1, one frame with content size
///     0x02 | decompressed_size u32 | zstd frame        the same against ``EnvelopeDictionary/version1``
///                                                      (only with ``SyncCapabilities/zstdEnvelopeDictionary``)
///
/// The message id is always SHA-256 of the uncompressed envelope. Blobs are never compressed.
public enum MessageBody {
    /// Flag byte of a raw body.
    public static let rawFlag: UInt8 = 0x00
    /// Flag byte of a zstd body.
    public static let zstdFlag: UInt8 = 0x01
    /// Flag byte of a zstd body compressed against ``EnvelopeDictionary/version1``.
    public static let zstdDictionaryFlag: UInt8 = 0x02

    /// Encodes an envelope as a body; with compression negotiated, compresses only when that is smaller.
    /// With `dictionaryNegotiated` as well, compresses against ``EnvelopeDictionary/version1`` (flag 0x02).
    public static func encode(envelope: [UInt8], compressionNegotiated: Bool, dictionaryNegotiated: Bool = false) -> [UInt8] {
        guard compressionNegotiated else { return envelope }
        let dictionary = dictionaryNegotiated ? EnvelopeDictionary.version1 : nil
        if let compressed = try? EnvelopeCompression.compress(envelope, dictionary: dictionary),
           compressed.count + SyncLimits.compressedBodyPrefixLength < envelope.count + 1 {
            var writer = ByteWriter(capacity: compressed.count + SyncLimits.compressedBodyPrefixLength)
            writer.write(dictionaryNegotiated ? zstdDictionaryFlag : zstdFlag)
            writer.write(UInt32(envelope.count))
            writer.write(bytes: compressed)
            return writer.bytes
        }
        return [rawFlag] + envelope
    }

    /// Decodes a body back into the envelope, decompressing with the bounds of ``EnvelopeCompression``.
    /// Flag 0x02 is accepted only when `dictionaryNegotiated`.
    public static func decode(_ body: [UInt8], compressionNegotiated: Bool, dictionaryNegotiated: Bool = false) throws(CompressionError) -> [UInt8] {
        guard compressionNegotiated else { return body }
        var reader = ByteReader(body)
        do {
            let flag = try reader.readUInt8()
            switch flag {
            case rawFlag:
                let envelope = reader.readRemaining()
                guard !envelope.isEmpty else { throw CompressionError.truncatedBody }
                return envelope
            case zstdFlag:
                let declared = Int(try reader.readUInt32())
                return try EnvelopeCompression.decompress(reader.readRemaining(), declaredSize: declared)
            case zstdDictionaryFlag where dictionaryNegotiated:
                let declared = Int(try reader.readUInt32())
                return try EnvelopeCompression.decompress(
                    reader.readRemaining(), declaredSize: declared, dictionary: EnvelopeDictionary.version1
                )
            default:
                throw CompressionError.unknownEncoding(flag)
            }
        } catch let error as CompressionError {
            throw error
        } catch {
            throw .truncatedBody
        }
    }
}
