import KithConvos

/// The binary frame of Convos appData, between the protobuf and the base64url text.
///
/// A frame is either the protobuf itself, or `0x1F ‖ u32be(protobuf length) ‖ DEFLATE(protobuf)`. The writer
/// compresses only protobufs longer than ``MetadataLimits/compressionThreshold`` bytes, and only when the whole
/// compressed frame is shorter than the protobuf; it writes raw DEFLATE. The reader also accepts zlib-wrapped
/// bodies (older convos-cli versions wrote them) and refuses declared lengths of 0 or above
/// ``MetadataLimits/maxDecompressedBytes``, ratios above ``MetadataLimits/maxCompressionRatio``, and bodies that
/// inflate to any other length than declared. A protobuf never starts with `0x1F` (it would be field 3 with the
/// invalid wire type 7), so the two forms cannot be confused.
public enum AppDataFrame {
    /// The first byte of a compressed frame.
    public static let compressionMarker: UInt8 = 0x1F

    /// The bytes before a compressed body: the marker and the big-endian 32-bit protobuf length.
    public static let headerBytes = 5

    /// Frames a serialized protobuf, compressing it when that pays.
    public static func pack(_ protobuf: [UInt8]) -> [UInt8] {
        guard protobuf.count > MetadataLimits.compressionThreshold,
            protobuf.count <= MetadataLimits.maxDecompressedBytes,
            let body = Deflate.compressRaw(protobuf),
            headerBytes + body.count < protobuf.count
        else { return protobuf }
        let length = UInt32(protobuf.count)
        var frame: [UInt8] = [compressionMarker]
        frame.reserveCapacity(headerBytes + body.count)
        frame += [UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
                  UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        frame += body
        return frame
    }

    /// The serialized protobuf inside a frame.
    ///
    /// - Throws: ``ConversationMetadataError/truncatedFrame(bytes:)``,
    ///   ``ConversationMetadataError/declaredLengthOutOfRange(declared:limit:)``,
    ///   ``ConversationMetadataError/compressionRatioTooHigh(declared:compressedBytes:limit:)``,
    ///   ``ConversationMetadataError/corruptCompressedBody`` or
    ///   ``ConversationMetadataError/decompressedLengthMismatch(declared:actual:)`` for a compressed frame that
    ///   breaks a rule; an uncompressed frame is returned as it is.
    public static func unpack(_ frame: [UInt8]) throws(ConversationMetadataError) -> [UInt8] {
        guard frame.first == compressionMarker else { return frame }
        guard frame.count > headerBytes else { throw .truncatedFrame(bytes: frame.count) }
        let declared = frame[1...4].reduce(0) { ($0 << 8) | Int($1) }
        let body = frame[headerBytes...]
        guard declared > 0, declared <= MetadataLimits.maxDecompressedBytes else {
            throw .declaredLengthOutOfRange(declared: declared, limit: MetadataLimits.maxDecompressedBytes)
        }
        guard declared <= body.count * MetadataLimits.maxCompressionRatio else {
            throw .compressionRatioTooHigh(
                declared: declared, compressedBytes: body.count, limit: MetadataLimits.maxCompressionRatio)
        }
        // Raw DEFLATE first (what Convos iOS and Kith write), then the zlib-wrapped form.
        var failure = ConversationMetadataError.corruptCompressedBody
        for format in [Deflate.Format.raw, .zlib] {
            switch Deflate.inflate(body, format: format, expectedLength: declared) {
            case .inflated(let protobuf): return protobuf
            case .wrongLength(let actual): failure = .decompressedLengthMismatch(declared: declared, actual: actual)
            case .corrupt: continue
            }
        }
        throw failure
    }
}
