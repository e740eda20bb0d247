import KithCanonical

/// Hands a guardian one recovery share over the direct session (Kith extension type `recovery_share`, direct
/// audience only; docs/CONTINUITY.md, "Recovery through contacts").
///
/// ```json
/// {"share":"<base64url of the encoded share>","type":"recovery_share"}
/// ```
///
/// This layer checks the size bound only; the facade decodes the share (KithContinuity's `RecoveryShare`) and keeps
/// it only when it names the sender as its owner. A newer set (higher generation) of the same owner replaces the
/// older one.
public struct RecoveryShareHandover: Sendable, Hashable {
    /// Largest encoded share accepted (a v1 share of the largest secret is 349 bytes).
    public static let maxBytes = 512

    /// The encoded share, base64url.
    public var share: String

    /// Creates the content from the encoded share bytes.
    public init(shareBytes: [UInt8]) {
        share = Base64URL.encode(shareBytes)
    }

    /// The decoded share bytes.
    public var shareBytes: [UInt8] { (try? Base64URL.decode(share)) ?? [] }

    init(_ fields: ContentFields) throws(FeedError) {
        share = try fields.requiredString("share")
        guard share.utf8.count <= (Self.maxBytes + 2) / 3 * 4, let bytes = try? Base64URL.decode(share),
              !bytes.isEmpty, bytes.count <= Self.maxBytes else {
            throw fields.fail("'share' must be base64url of 1...\(Self.maxBytes) bytes")
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["share"] = .string(share)
        return object
    }
}
