import Crypto
import KithCanonical

/// Random capabilities, subscription secrets and ids of the push service: base64url of random
/// bytes, stored as SHA-256 digests.
enum PushSecret {
    /// Bytes of a capability or subscription secret (192 bits: above UnifiedPush's 160).
    static let secretBytes = 24

    /// A fresh random base64url value of `count` bytes.
    static func random(bytes count: Int = secretBytes) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The digest a secret is stored and looked up as.
    static func digest(_ text: String) -> [UInt8] { Array(SHA256.hash(data: Array(text.utf8))) }

    /// True when `text` has the shape of a secret (so garbage is refused before any lookup).
    static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == Base64URL.encodedLength(of: secretBytes) && Base64URL.isCanonical(text)
    }
}
