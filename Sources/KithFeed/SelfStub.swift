import KithCanonical
import KithIdentity

/// What replicates in place of a `self` message: its position and id, never its content.
///
/// The spec says self messages are never replicated, and also that chains have no gaps. Kith
/// resolves this by replicating a stub line
///
///     {"feed_id":"…","message_id":"…","sequence":N,"stub":"self"}
///
/// (canonical JSON). A stub carries no signature: it is authenticated by the *next* message,
/// whose signed `previous` must equal the stub's `message_id` (backward anchoring). A stub at the
/// tip of a feed stays pending until the next message arrives. What a stub cannot prove is the
/// self message's own `previous` link; a fork hidden inside a self message is therefore only
/// detected by the author's own devices.
public struct SelfStub: Sendable, Hashable {
    /// The feed.
    public let feedID: FeedID
    /// The position of the self message.
    public let sequence: UInt32
    /// The id of the self message.
    public let messageID: MessageID

    /// Creates a stub.
    public init(feedID: FeedID, sequence: UInt32, messageID: MessageID) {
        self.feedID = feedID
        self.sequence = sequence
        self.messageID = messageID
    }

    /// The stub of a self envelope.
    public init(of envelope: Envelope) {
        self.init(feedID: envelope.feedID, sequence: envelope.sequence, messageID: envelope.messageID)
    }

    /// The canonical JSON line.
    public var canonicalBytes: [UInt8] {
        var object = JSONObject()
        object["feed_id"] = .string(feedID.string)
        object["message_id"] = .string(messageID.string)
        object["sequence"] = .integer(Int64(sequence))
        object["stub"] = .string("self")
        return CanonicalJSON.serialize(object)
    }

    /// Reads a stub from an already parsed canonical object; nil when the object is not a stub.
    public static func from(_ object: JSONObject) throws(FeedError) -> SelfStub? {
        guard let marker = object["stub"] else { return nil }
        guard marker.stringValue == "self", object.count == 4 else {
            throw .invalidField("stub", reason: "a stub has exactly feed_id, message_id, sequence and stub:\"self\"")
        }
        let feed = try Envelope.requiredString(object, "feed_id")
        let feedID: FeedID
        do { feedID = try FeedID(feed) } catch { throw .invalidField("feed_id", reason: error.description) }
        let sequence = try Envelope.requiredInteger(object, "sequence")
        guard sequence >= 0, sequence <= Int64(FeedLimits.maxSequence) else {
            throw .invalidField("sequence", reason: "must be in 0...\(FeedLimits.maxSequence)")
        }
        let id = try MessageID(try Envelope.requiredString(object, "message_id"))
        return SelfStub(feedID: feedID, sequence: UInt32(sequence), messageID: id)
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
