import Crypto
import KithCanonical

/// The integrity digest split together with a recovery secret:
///
///     SHA-256("Kith_RecoveryDigest_v1" | set id 16 | generation u32 | threshold u8 | share count u8
///             | owner feed id 32 | secret length u16 | secret)
///
/// Combining recomputes it over the rebuilt secret and the shares' common fields and compares in constant time, so
/// a forged, altered, mixed or non-guardian share gives `RecoveryError.integrityCheckFailed` instead of a wrong
/// seed. It binds the secret to its set: shares of the same secret under another set id never pass.
enum RecoveryDigest {
    static let label = Array("Kith_RecoveryDigest_v1".utf8)

    static func compute(secret: [UInt8], setID: [UInt8], generation: UInt32, threshold: Int, shareCount: Int,
                        ownerFeedID: [UInt8]) -> [UInt8] {
        var writer = ByteWriter(capacity: label.count + 64 + secret.count)
        writer.write(bytes: label)
        writer.write(bytes: setID)
        writer.write(generation)
        writer.write(UInt8(threshold))
        writer.write(UInt8(shareCount))
        writer.write(bytes: ownerFeedID)
        writer.write(UInt16(secret.count))
        writer.write(bytes: secret)
        return Array(SHA256.hash(data: writer.bytes))
    }
}
