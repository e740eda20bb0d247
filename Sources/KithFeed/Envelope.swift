import Crypto
import Foundation
import KithCanonical
import KithIdentity

/// A signed feed message (spec 3): the unit that is chained, stored, synced and verified.
///
/// An `Envelope` is always backed by its exact canonical bytes (``canonicalBytes``); those bytes,
/// not a re-serialization, are what is hashed into ``messageID`` and stored. Obtain one with
/// ``parse(_:)`` (received bytes, must already be canonical) or ``sign(_:with:)`` (authoring).
/// Parsing checks structure only; call ``verifySignature(with:)`` to authenticate it.
public struct Envelope: Sendable, Hashable {
    /// Envelope format version (1).
    public let version: Int64
    /// The author's feed.
    public let feedID: FeedID
    /// Position in the feed, from 0.
    public let sequence: UInt32
    /// Author's clock, Unix seconds; informational only.
    public let timestamp: Int64
    /// Id of message `sequence - 1`; nil only at genesis.
    public let previous: MessageID?
    /// The unencrypted routing type (`post`, `reaction`, ... or unknown).
    public let type: String
    /// Who can decrypt the content.
    public let audience: Audience
    /// The encrypted content, as its base64url text.
    public let contentEnc: String
    /// The Ed25519 signature.
    public let signature: [UInt8]
    /// Top-level fields this version does not know; they are covered by the signature and kept.
    public let extraFields: JSONObject
    /// The exact canonical JSON bytes of the full envelope.
    public let canonicalBytes: [UInt8]
    /// base64url(SHA-256(canonicalBytes)).
    public let messageID: MessageID
    /// Every field as parsed (kept so the signing input needs no second parse).
    let fields: JSONObject
    /// Where the `signature` member lies in ``canonicalBytes`` (the signing input is the bytes
    /// without it), as located by the parser.
    let signatureRange: Range<Int>?

    static let knownFields: Set<String> = [
        "version", "feed_id", "sequence", "timestamp", "previous", "type", "audience", "content_enc", "signature",
    ]

    /// The decoded `content_enc` bytes.
    public func contentBytes() throws(FeedError) -> [UInt8] {
        do {
            return try Base64URL.decode(contentEnc)
        } catch {
            throw .invalidField("content_enc", reason: error.description)
        }
    }

    /// The canonical bytes that the signature covers: the envelope without `signature`.
    public func signingBytes() -> [UInt8] {
        // The bytes are canonical, so cutting the member out equals re-serializing without it.
        if let signatureRange { return CanonicalJSON.removingMember(signatureRange, from: canonicalBytes) }
        return Self.signingBytes(of: fields.removing("signature"))
    }

    /// Verifies the Ed25519 signature and that `feed_id` is SHA-256 of the original identity key.
    ///
    /// - Parameters:
    ///   - key: the key the feed currently signs with (after a rotation, the new key).
    ///   - feedKey: the key whose hash is the feed id (the original key; defaults to `key`).
    public func verifySignature(with key: Curve25519.Signing.PublicKey, feedKey: Curve25519.Signing.PublicKey? = nil) throws(FeedError) {
        let expected = FeedID(identityKey: feedKey ?? key)
        guard expected == feedID else {
            throw .feedIDMismatch(expected: expected.string, found: feedID.string)
        }
        guard key.isValidSignature(signature, for: signingBytes()) else { throw .badSignature }
    }

    /// The parsed JSON object of the envelope.
    public func canonicalObject() -> JSONObject { fields }

    static let jsonLimits = JSONLimits(
        maxBytes: FeedLimits.maxEnvelopeBytes,
        maxDepth: 8,
        maxStringBytes: FeedLimits.maxEnvelopeBytes,
        maxContainerElements: 256,
        maxTotalValues: 1024
    )

    static func signingBytes(of unsigned: JSONObject) -> [UInt8] {
        CanonicalJSON.serialize(unsigned)
    }

    public static func == (lhs: Envelope, rhs: Envelope) -> Bool { lhs.canonicalBytes == rhs.canonicalBytes }

    public func hash(into hasher: inout Hasher) { hasher.combine(messageID) }
}
