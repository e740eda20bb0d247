import KithCanonical

/// Hands a contact a batch of one-time prekeys over an established direct session (Kith
/// extension type `prekey_batch`, additive per spec 10.1).
///
/// ```json
/// {"prekeys":"<base64url of the batch wire>","type":"prekey_batch"}
/// ```
///
/// The value is the one-time prekey batch wire of docs/FEED-FORMAT.md ("Direct messages"):
/// `version u8 | count u16 | count x (id u32 | X25519 public key 32)`. This layer checks the size
/// bounds only; the direct-message layer decodes and validates the keys. Valid only in a
/// `direct:` audience (the keys are for that one contact).
///
/// `"pool_reset":true` (optional; absent means false) is sent by an identity restored from a backup
/// (docs/CONTINUITY.md section 8): its inner-circle one-time pool shared with the recipient is gone, so the
/// recipient drops its pool with the sender (only with the sender: the direct session proves who wrote it).
public struct PrekeyBatch: Sendable, Hashable {
    /// The batch wire bytes, base64url.
    public var prekeys: String
    /// True when the sender's one-time pool with the recipient is dead (sent after a restore).
    public var poolReset: Bool

    /// Creates the content from the batch wire bytes; `poolReset` tells the recipient to drop its pool with the sender.
    public init(batchBytes: [UInt8], poolReset: Bool = false) {
        prekeys = Base64URL.encode(batchBytes)
        self.poolReset = poolReset
    }

    /// The decoded batch wire bytes.
    public var batchBytes: [UInt8] { (try? Base64URL.decode(prekeys)) ?? [] }

    init(_ fields: ContentFields) throws(FeedError) {
        prekeys = try fields.requiredString("prekeys")
        guard prekeys.utf8.count <= (FeedLimits.maxPrekeyBatchBytes + 2) / 3 * 4,
              let bytes = try? Base64URL.decode(prekeys),
              bytes.count >= 3 + 36, bytes.count <= FeedLimits.maxPrekeyBatchBytes else {
            throw fields.fail("'prekeys' must be base64url of 39...\(FeedLimits.maxPrekeyBatchBytes) bytes")
        }
        switch fields.object["pool_reset"] {
        case nil: poolReset = false
        case .bool(true)?: poolReset = true
        default: throw fields.fail("'pool_reset' must be true when present")
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["prekeys"] = .string(prekeys)
        if poolReset { object["pool_reset"] = .bool(true) }
        return object
    }
}
