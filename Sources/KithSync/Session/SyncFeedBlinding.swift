import Crypto
import KithIdentity

/// Blinds feed ids on the wire of one ``SecureLink`` (docs/sync.md, section 9b), so a request
/// tells the peer only which of the feeds *it* can name this side follows.
///
/// `key = HKDF-SHA256(ikm: handshake hash, salt: empty, info: "kith-sync/1 feed blinding", 32)`;
/// `tag(feed) = HMAC-SHA256(key, feed_id[32])` (a ``SyncFeedTag``), 32 bytes like a feed id's raw
/// form, so the spec 8.3 structures keep their sizes. The handshake hash differs on every link
/// (fresh ephemeral keys), so the same feed gives unrelated tags on two links and a tag cannot be
/// carried from one session to another.
public struct SyncFeedBlinding: Sendable {
    private let key: SymmetricKey

    /// The blinding of a link whose Noise handshake hash is `handshakeHash`.
    public init(handshakeHash: [UInt8]) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: handshakeHash),
            info: SyncLimits.feedBlindingLabel,
            outputByteCount: SyncLimits.idLength
        )
    }

    /// The blinding of `link` (both ends derive the same key).
    public init(link: SecureLink) {
        self.init(handshakeHash: link.handshakeHash)
    }

    /// The tag that stands for `feed` in this link's requests, held ranges and offers.
    public func blind(_ feed: FeedID) -> SyncFeedTag {
        SyncFeedTag(exactly: Array(HMAC<SHA256>.authenticationCode(for: feed.rawBytes, using: key)))
    }
}
