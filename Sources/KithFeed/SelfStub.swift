import Crypto
import KithCanonical
import KithEd25519
import KithIdentity

/// What replicates in place of a `self` message: its position, its link and its id, signed by
/// the author, never its content.
///
/// The spec says self messages are never replicated, and also that chains have no gaps. Kith
/// resolves this by replicating a signed stub line
///
///     {"feed_id":"…","message_id":"…","previous":"…"|null,"sequence":N,"signature":"…","stub":"self"}
///
/// (canonical JSON). `signature` is Ed25519 by the feed's identity key over the canonical stub
/// without `signature`; the object's `stub` member keeps it distinct from every envelope. A
/// stub is therefore verified like an envelope: its signature, its `previous` (the id of the
/// entry before it) and, by the next entry, its `message_id`. Runs of self messages replicate as
/// runs of stubs. What a stub does not reveal is the self message's type, time and content.
public struct SelfStub: Sendable, Hashable {
    /// The feed.
    public let feedID: FeedID
    /// The position of the self message.
    public let sequence: UInt32
    /// The id of the entry before it (nil at genesis).
    public let previous: MessageID?
    /// The id of the self message.
    public let messageID: MessageID
    /// The author's Ed25519 signature over ``signingBytes``.
    public let signature: [UInt8]

    /// Creates and signs the stub of one of the author's own self envelopes.
    public static func sign(_ envelope: Envelope, with identity: Identity) throws(FeedError) -> SelfStub {
        let unsigned = SelfStub(feedID: envelope.feedID, sequence: envelope.sequence, previous: envelope.previous, messageID: envelope.messageID, signature: [])
        do {
            return SelfStub(
                feedID: envelope.feedID, sequence: envelope.sequence, previous: envelope.previous,
                messageID: envelope.messageID, signature: try identity.sign(unsigned.signingBytes)
            )
        } catch {
            throw .unsupported("signing failed: \(error)")
        }
    }

    init(feedID: FeedID, sequence: UInt32, previous: MessageID?, messageID: MessageID, signature: [UInt8]) {
        self.feedID = feedID
        self.sequence = sequence
        self.previous = previous
        self.messageID = messageID
        self.signature = signature
    }

    private func object(includingSignature: Bool) -> JSONObject {
        var object = JSONObject()
        object["feed_id"] = .string(feedID.string)
        object["message_id"] = .string(messageID.string)
        object["previous"] = previous.map { .string($0.string) } ?? .null
        object["sequence"] = .integer(Int64(sequence))
        if includingSignature { object["signature"] = .string(Base64URL.encode(signature)) }
        object["stub"] = .string("self")
        return object
    }

    /// The bytes the signature covers: the canonical stub without `signature`.
    public var signingBytes: [UInt8] { CanonicalJSON.serialize(object(includingSignature: false)) }

    /// The canonical JSON line.
    public var canonicalBytes: [UInt8] { CanonicalJSON.serialize(object(includingSignature: true)) }

    /// Verifies the signature with the key in force at this sequence; `feedKey` is the original
    /// key whose hash is the feed id (defaults to `key`).
    public func verifySignature(with key: Curve25519.Signing.PublicKey, feedKey: Curve25519.Signing.PublicKey? = nil) throws(FeedError) {
        let expected = FeedID(identityKey: feedKey ?? key)
        guard expected == feedID else { throw .feedIDMismatch(expected: expected.string, found: feedID.string) }
        guard key.isValidStrictSignature(signature, for: signingBytes) else { throw .badSignature }
    }

    /// Reads a stub from an already parsed canonical object; nil when the object is not a stub.
    public static func from(_ object: JSONObject) throws(FeedError) -> SelfStub? {
        guard let marker = object["stub"] else { return nil }
        guard marker.stringValue == "self", object.count == 6 else {
            throw .invalidField("stub", reason: "a stub has exactly feed_id, message_id, previous, sequence, signature and stub:\"self\"")
        }
        let feed = try Envelope.requiredString(object, "feed_id")
        let feedID: FeedID
        do { feedID = try FeedID(feed) } catch { throw .invalidField("feed_id", reason: error.description) }
        let sequence = try Envelope.requiredInteger(object, "sequence")
        guard sequence >= 0, sequence <= Int64(FeedLimits.maxSequence) else {
            throw .invalidField("sequence", reason: "must be in 0...\(FeedLimits.maxSequence)")
        }
        let previous = try Envelope.previousLink(object, sequence: UInt32(sequence))
        let id = try MessageID(try Envelope.requiredString(object, "message_id"))
        let signature: [UInt8]
        do {
            signature = try Base64URL.decode(try Envelope.requiredString(object, "signature"), expectedLength: FeedLimits.signatureBytes)
        } catch let error as FeedError {
            throw error
        } catch {
            throw .invalidField("signature", reason: "\(error)")
        }
        return SelfStub(feedID: feedID, sequence: UInt32(sequence), previous: previous, messageID: id, signature: signature)
    }
}

/// One line of an exported feed: a full envelope, a self stub, or an envelope of a later version.
public enum FeedEntry: Sendable, Hashable {
    case envelope(Envelope)
    case stub(SelfStub)
    case foreign(ForeignEnvelope)

    /// Parses one canonical line.
    public static func parse<Bytes: Collection>(_ input: Bytes) throws(FeedError) -> FeedEntry where Bytes.Element == UInt8 {
        let bytes = Array(input)
        guard bytes.count <= FeedLimits.maxEnvelopeBytes else { throw .tooLarge(bytes.count) }
        // Stubs are tiny and start with {"feed_id": — envelopes start with {"audience":.
        if bytes.starts(with: Array(#"{"feed_id":"#.utf8)) {
            let value: JSONValue
            do {
                value = try CanonicalJSON.parseCanonical(bytes, limits: Envelope.jsonLimits)
            } catch {
                if error.code == "not_canonical" { throw .notCanonical(error.description) }
                throw .malformedJSON(error.description)
            }
            guard let object = value.objectValue else { throw .notAnObject }
            if let stub = try SelfStub.from(object) { return .stub(stub) }
        }
        switch try Envelope.parse(bytes) {
        case .v1(let envelope): return .envelope(envelope)
        case .foreign(let foreign): return .foreign(foreign)
        }
    }

    /// The entry's position.
    public var sequence: UInt32? {
        switch self {
        case .envelope(let envelope): envelope.sequence
        case .stub(let stub): stub.sequence
        case .foreign(let foreign): foreign.sequence
        }
    }

    /// The entry's message id.
    public var messageID: MessageID {
        switch self {
        case .envelope(let envelope): envelope.messageID
        case .stub(let stub): stub.messageID
        case .foreign(let foreign): foreign.messageID
        }
    }

    /// The canonical bytes of the line.
    public var bytes: [UInt8] {
        switch self {
        case .envelope(let envelope): envelope.canonicalBytes
        case .stub(let stub): stub.canonicalBytes
        case .foreign(let foreign): foreign.bytes
        }
    }
}

extension FeedEntry {
    /// The feed the entry names; nil for a later-version envelope that names none.
    public var feedID: FeedID? {
        switch self {
        case .envelope(let envelope): envelope.feedID
        case .stub(let stub): stub.feedID
        case .foreign(let foreign): foreign.feedID
        }
    }
}
