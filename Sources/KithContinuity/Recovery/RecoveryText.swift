import KithCanonical

/// The text forms of shares, requests and releases: base64url, bounded before it is decoded.
enum RecoveryText {
    /// Decodes `text` (surrounding whitespace ignored) when it is canonical base64url of at most `maxBytes` bytes.
    static func decode(_ text: String, kind: String, maxBytes: Int) throws(RecoveryError) -> [UInt8] {
        let trimmed = text.trimmingWhitespace
        guard trimmed.utf8.count <= Base64URL.encodedLength(of: maxBytes) else {
            throw .malformed(kind: kind, reason: "text of \(trimmed.utf8.count) characters is too long")
        }
        do {
            return try Base64URL.decode(trimmed)
        } catch {
            throw .malformed(kind: kind, reason: error.description)
        }
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}

/// The frame every binary recovery format shares: a size bound, a 3-byte magic, a version byte, a body read through
/// a bounded `ByteReader`, and no trailing bytes. Every failure becomes `RecoveryError.malformed`.
enum RecoveryDecoding {
    static func read<Value>(_ bytes: [UInt8], kind: String, maxBytes: Int, magic: [UInt8], version: UInt8,
                            body: (inout ByteReader) throws -> Value) throws(RecoveryError) -> Value {
        guard bytes.count <= maxBytes else { throw .malformed(kind: kind, reason: "\(bytes.count) bytes, at most \(maxBytes)") }
        var reader = ByteReader(bytes)
        do {
            guard try reader.readBytes(magic.count) == magic else { throw RecoveryError.malformed(kind: kind, reason: "not a \(kind)") }
            let found = try reader.readUInt8()
            guard found == version else { throw RecoveryError.malformed(kind: kind, reason: "unknown version \(found)") }
            let value = try body(&reader)
            try reader.expectEnd()
            return value
        } catch let error as RecoveryError {
            throw error
        } catch {
            throw .malformed(kind: kind, reason: "\(error)")
        }
    }
}
