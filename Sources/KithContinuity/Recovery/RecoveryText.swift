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
