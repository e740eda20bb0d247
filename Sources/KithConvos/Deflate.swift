import CZlib

/// DEFLATE through the system zlib: raw DEFLATE (RFC 1951) out, raw or zlib-wrapped (RFC 1950) in.
///
/// Decompression is bounded: the caller states the exact output length, the output buffer is that length plus one
/// byte, and a stream that would produce more stops there. Shared by Convos appData (`KithGroups`) and Convos invites
/// (`KithInvites`), which frame DEFLATE the same way.
public enum Deflate {
    /// The two body formats a reader accepts.
    public enum Format: Sendable {
        /// Raw DEFLATE, what Convos iOS writes.
        case raw
        /// DEFLATE inside a zlib header and Adler-32 trailer, what older convos-cli versions wrote.
        case zlib
    }

    /// What a bounded inflate produced.
    public enum Outcome: Equatable, Sendable {
        /// Exactly the expected bytes, and the stream ended where the input did.
        case inflated([UInt8])
        /// A complete stream of a different length (`nil`: longer than expected).
        case wrongLength(Int?)
        /// Not a stream of this format, a truncated one, or one followed by extra bytes.
        case corrupt
    }

    /// Compresses `input` as raw DEFLATE at the best compression level; `nil` only if zlib fails (out of memory).
    public static func compressRaw(_ input: [UInt8]) -> [UInt8]? {
        guard !input.isEmpty else { return nil }
        var stream = z_stream()
        guard kith_zlib_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: capacity)
        var source = input
        let status = source.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// Inflates `input` in `format`, expecting exactly `expectedLength` bytes (at least 1).
    public static func inflate(_ input: ArraySlice<UInt8>, format: Format, expectedLength: Int) -> Outcome {
        guard !input.isEmpty, expectedLength > 0 else { return .corrupt }
        var stream = z_stream()
        guard kith_zlib_inflate_init(&stream, format == .zlib ? 1 : 0) == Z_OK else { return .corrupt }
        defer { inflateEnd(&stream) }
        // One spare byte: a stream that fills it is longer than declared.
        var output = [UInt8](repeating: 0, count: expectedLength + 1)
        var source = Array(input)
        let status = source.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        let produced = output.count - Int(stream.avail_out)
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else { return .corrupt }
            guard produced == expectedLength else { return .wrongLength(produced) }
            output.removeLast()
            return .inflated(output)
        case Z_OK, Z_BUF_ERROR:
            // Out of output space (longer than declared) or out of input (truncated stream).
            return stream.avail_out == 0 ? .wrongLength(nil) : .corrupt
        default:
            return .corrupt
        }
    }
}
