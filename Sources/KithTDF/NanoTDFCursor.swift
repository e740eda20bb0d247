import KithCanonical

/// The bounded reader every NanoTDF field goes through: ``ByteReader`` with field names in its errors.
struct NanoTDFCursor {
    private var reader: ByteReader

    init(_ bytes: some Collection<UInt8>) { reader = ByteReader(bytes) }

    var offset: Int { reader.offset }
    var remaining: Int { reader.remaining }

    mutating func readByte(_ field: String) throws(NanoTDFError) -> UInt8 {
        do { return try reader.readUInt8() } catch { throw map(error, field) }
    }

    mutating func readUInt16(_ field: String) throws(NanoTDFError) -> UInt16 {
        do { return try reader.readUInt16() } catch { throw map(error, field) }
    }

    mutating func readUInt24(_ field: String) throws(NanoTDFError) -> Int {
        let bytes = try read(3, field)
        return Int(bytes[0]) << 16 | Int(bytes[1]) << 8 | Int(bytes[2])
    }

    mutating func read(_ count: Int, _ field: String) throws(NanoTDFError) -> [UInt8] {
        do { return try reader.readBytes(count) } catch { throw map(error, field) }
    }

    func expectEnd() throws(NanoTDFError) {
        if reader.remaining != 0 { throw .trailingBytes(count: reader.remaining, offset: reader.offset) }
    }

    private func map(_ error: ByteReaderError, _ field: String) -> NanoTDFError {
        switch error {
        case .truncated(let needed, let available, let offset):
            .truncated(field: field, needed: needed, available: available, offset: offset)
        case .trailingBytes(let count, let offset):
            .trailingBytes(count: count, offset: offset)
        }
    }
}

extension ByteWriter {
    /// Appends a big-endian 24-bit integer (the caller guarantees `value < 2^24`).
    mutating func writeUInt24(_ value: Int) {
        write(UInt8(truncatingIfNeeded: value >> 16))
        write(UInt8(truncatingIfNeeded: value >> 8))
        write(UInt8(truncatingIfNeeded: value))
    }
}
