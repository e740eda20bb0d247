import CZlib

/// DEFLATE through the system zlib for invite frames: raw DEFLATE out; raw or zlib-wrapped in, bounded.
enum InviteDeflate {
    /// Compresses as raw DEFLATE (RFC 1951) at the best level; `nil` if zlib fails.
    static func compressRaw(_ input: [UInt8]) -> [UInt8]? {
        guard !input.isEmpty else { return nil }
        var stream = z_stream()
        guard kith_zlib_deflate_init_raw(&stream, Z_BEST_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
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

    /// Inflates `input` (raw when `zlibWrapped` is false) into at most `expected + 1` bytes.
    ///
    /// - Returns: the output, or `nil` for a corrupt, truncated or trailing-garbage stream.
    ///   An output of `expected + 1` bytes means the stream is longer than declared.
    static func inflate(_ input: [UInt8], zlibWrapped: Bool, expected: Int) -> [UInt8]? {
        guard !input.isEmpty, expected > 0 else { return nil }
        var stream = z_stream()
        guard kith_zlib_inflate_init(&stream, zlibWrapped ? 1 : 0) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expected + 1)
        var source = input
        let status = source.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        if stream.avail_out == 0 { return output }  // longer than declared
        guard status == Z_STREAM_END, stream.avail_in == 0 else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}
