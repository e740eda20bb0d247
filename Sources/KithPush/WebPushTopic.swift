/// RFC 8030 §5.4: a `Topic` header value, 1…32 characters of the base64url alphabet. A stored message
/// with the same topic is replaced by a newer one.
public enum WebPushTopic {
    /// The longest topic.
    public static let maxLength = 32

    /// Whether `topic` is a valid RFC 8030 topic.
    public static func isValid(_ topic: String) -> Bool {
        let bytes = topic.utf8
        guard !bytes.isEmpty, bytes.count <= maxLength else { return false }
        return bytes.allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }
}
