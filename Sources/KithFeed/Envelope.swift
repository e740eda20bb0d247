import Crypto
import Foundation
import KithCanonical
import KithEd25519
import KithIdentity

/// A signed feed message (spec 3): the unit that is chained, stored, synced and verified.
///
/// An `Envelope` is always backed by its exact canonical bytes (``canonicalBytes``); those bytes,
/// not a re-serialization, are what is hashed into ``messageID`` and stored. Obtain one with
/// ``parse(_:)`` (received bytes, must already be canonical) or ``sign(_:with:)`` (authoring).
/// Parsing checks structure only; call ``verifySignature(with:)`` to authenticate it.
public struct Envelope: Sendable, Hashable {
    /// The parsed parts, shared by every copy: an envelope is passed through several enums and
    /// collections on its way into the store, and a copy then costs one reference count.
    private let storage: Storage

    /// Envelope format version (1).
    public var version: Int64 { storage.parts.version }
    /// The author's feed.
    public var feedID: FeedID { storage.parts.feedID }
    /// Position in the feed, from 0.
    public var sequence: UInt32 { storage.parts.sequence }
    /// Author's clock, Unix seconds; informational only.
    public var timestamp: Int64 { storage.parts.timestamp }
    /// Id of message `sequence - 1`; nil only at genesis.
    public var previous: MessageID? { storage.parts.previous }
    /// The unencrypted routing type (`post`, `reaction`, ... or unknown).
    public var type: String { storage.parts.type }
    /// Who can decrypt the content.
    public var audience: Audience { storage.parts.audience }
    /// The encrypted content, as its base64url text.
    public var contentEnc: String { storage.parts.contentEnc }
    /// The Ed25519 signature.
    public var signature: [UInt8] { storage.parts.signature }
    /// Top-level fields this version does not know; they are covered by the signature and kept.
    public var extraFields: JSONObject { storage.parts.extraFields }
    /// The exact canonical JSON bytes of the full envelope.
    public var canonicalBytes: [UInt8] { storage.parts.canonicalBytes }
    /// base64url(SHA-256(canonicalBytes)).
    public var messageID: MessageID { storage.parts.messageID }
    /// Every field as parsed (kept so the signing input needs no second parse).
    var fields: JSONObject { storage.parts.fields }
    /// Where the `signature` member lies in ``canonicalBytes`` (the signing input is the bytes
    /// without it), as located by the parser.
    var signatureRange: Range<Int>? { storage.parts.signatureRange }

    /// Everything ``parse(_:)`` reads out of (and checks against) the canonical bytes.
    struct Parts: Sendable {
        let version: Int64
        let feedID: FeedID
        let sequence: UInt32
        let timestamp: Int64
        let previous: MessageID?
        let type: String
        let audience: Audience
        let contentEnc: String
        let signature: [UInt8]
        let extraFields: JSONObject
        let canonicalBytes: [UInt8]
        let messageID: MessageID
        let fields: JSONObject
        let signatureRange: Range<Int>?
    }

    private final class Storage: Sendable {
        let parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    /// An envelope from parts that ``parse(_:)`` checked against their canonical bytes.
    init(_ parts: Parts) {
        storage = Storage(parts)
    }

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
        guard key.isValidStrictSignature(signature, for: signingBytes()) else { throw .badSignature }
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
