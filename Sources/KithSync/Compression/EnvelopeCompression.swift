#if canImport(CZstd)
import CZstd
#endif

/// zstd level 1 compression of envelopes with strictly bounded decompression (spec 8.4).
///
/// Decompression never trusts the frame: the caller's declared size must be at most
/// ``SyncLimits/maximumMessageLength``, the frame must state exactly that content size, contain
/// a single frame and decode to exactly that many bytes into a buffer of that size. A
/// decompression bomb is therefore refused before any allocation larger than the bound.
///
/// zstd comes from the system library (Debian's `libzstd-dev`) where the platform has it (Linux);
/// elsewhere Kith builds without it, ``isAvailable`` is false, and the zstd capability bits are
/// left out of the Hello (``SyncCapabilities/supported``), so peers never send compressed bodies.
public enum EnvelopeCompression {
    /// Whether this build can compress and decompress (it links libzstd).
    public static var isAvailable: Bool {
        #if canImport(CZstd)
        true
        #else
        false
        #endif
    }

    #if canImport(CZstd)
    /// Compresses bytes into one zstd frame (level 1) that records its content size, optionally
    /// against a raw-content dictionary (``EnvelopeDictionary``).
    public static func compress(
        _ input: [UInt8], level: Int32 = SyncLimits.compressionLevel, dictionary: [UInt8]? = nil
    ) throws(CompressionError) -> [UInt8] {
        guard !input.isEmpty else { throw .emptyEnvelope }
        guard let context = ZSTD_createCCtx() else { throw .compressionFailed("cannot allocate a compression context") }
        defer { ZSTD_freeCCtx(context) }
        let capacity = ZSTD_compressBound(input.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let dictionaryBytes = dictionary ?? []
        let written = output.withUnsafeMutableBytes { destination in
            input.withUnsafeBytes { source in
                dictionaryBytes.withUnsafeBytes { dict in
                    ZSTD_compress_usingDict(
                        context, destination.baseAddress, capacity, source.baseAddress, input.count,
                        dictionaryBytes.isEmpty ? nil : dict.baseAddress, dictionaryBytes.count, level
                    )
                }
            }
        }
        if ZSTD_isError(written) != 0 { throw .compressionFailed(errorName(written)) }
        output.removeSubrange(written...)
        return output
    }

    /// Decompresses one zstd frame that must decode to exactly `declaredSize` bytes (≤ 64 KB).
    /// - Throws: ``CompressionError`` for every deviation; never allocates more than `declaredSize`
    ///   bytes of output.
    public static func decompress(_ frame: [UInt8], declaredSize: Int, dictionary: [UInt8]? = nil) throws(CompressionError) -> [UInt8] {
        guard declaredSize <= SyncLimits.maximumMessageLength else { throw .declaredSizeTooLarge(declaredSize) }
        guard declaredSize > 0 else { throw .emptyEnvelope }
        guard !frame.isEmpty else { throw .notZstdFrame }
        let (contentSize, frameLength) = frame.withUnsafeBytes { source in
            (ZSTD_getFrameContentSize(source.baseAddress, frame.count),
             ZSTD_findFrameCompressedSize(source.baseAddress, frame.count))
        }
        if contentSize == UInt64.max - 1 { throw .notZstdFrame }          // ZSTD_CONTENTSIZE_ERROR
        if contentSize == UInt64.max { throw .missingContentSize }        // ZSTD_CONTENTSIZE_UNKNOWN
        guard contentSize == UInt64(declaredSize) else {
            throw .contentSizeMismatch(declared: declaredSize, frame: contentSize)
        }
        if ZSTD_isError(frameLength) != 0 { throw .corruptFrame(errorName(frameLength)) }
        guard frameLength == frame.count else { throw .trailingBytes(frame.count - frameLength) }
        guard let context = ZSTD_createDCtx() else { throw .corruptFrame("cannot allocate a decompression context") }
        defer { ZSTD_freeDCtx(context) }
        var output = [UInt8](repeating: 0, count: declaredSize)
        let dictionaryBytes = dictionary ?? []
        let produced = output.withUnsafeMutableBytes { destination in
            frame.withUnsafeBytes { source in
                dictionaryBytes.withUnsafeBytes { dict in
                    ZSTD_decompress_usingDict(
                        context, destination.baseAddress, declaredSize, source.baseAddress, frame.count,
                        dictionaryBytes.isEmpty ? nil : dict.baseAddress, dictionaryBytes.count
                    )
                }
            }
        }
        if ZSTD_isError(produced) != 0 { throw .corruptFrame(errorName(produced)) }
        guard produced == declaredSize else { throw .decompressedSizeMismatch(declared: declaredSize, actual: produced) }
        return output
    }

    private static func errorName(_ code: Int) -> String {
        guard let name = ZSTD_getErrorName(code) else { return "error \(code)" }
        return String(cString: name)
    }
    #else
    /// Unavailable in this build (no libzstd): always throws ``CompressionError/unavailable``.
    public static func compress(
        _ input: [UInt8], level: Int32 = SyncLimits.compressionLevel, dictionary: [UInt8]? = nil
    ) throws(CompressionError) -> [UInt8] {
        throw .unavailable
    }

    /// Unavailable in this build (no libzstd): always throws ``CompressionError/unavailable``.
    public static func decompress(_ frame: [UInt8], declaredSize: Int, dictionary: [UInt8]? = nil) throws(CompressionError) -> [UInt8] {
        throw .unavailable
    }
    #endif
}
