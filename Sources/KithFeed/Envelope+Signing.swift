import KithCanonical
import KithIdentity

/// The fields an author chooses for a new message; ``Envelope/sign(_:with:)`` adds the signature.
public struct UnsignedEnvelope: Sendable {
    /// Position in the feed.
    public var sequence: UInt32
    /// Unix seconds.
    public var timestamp: Int64
    /// Id of message `sequence - 1` (nil only at genesis).
    public var previous: MessageID?
    /// Routing type.
    public var type: String
    /// Audience.
    public var audience: Audience
    /// Encrypted content bytes.
    public var content: [UInt8]

    /// Creates the unsigned fields of a message.
    public init(sequence: UInt32, timestamp: Int64, previous: MessageID?, type: String, audience: Audience, content: [UInt8]) {
        self.sequence = sequence
        self.timestamp = timestamp
        self.previous = previous
        self.type = type
        self.audience = audience
        self.content = content
    }
}

extension Envelope {
    /// Signs a new message with the identity key and returns the canonical envelope.
    ///
    /// - Throws: ``FeedError`` when a field breaks a rule (the same rules a receiver applies).
    public static func sign(_ unsigned: UnsignedEnvelope, with identity: Identity) throws(FeedError) -> Envelope {
        try validateType(unsigned.type)
        guard unsigned.sequence <= FeedLimits.maxSequence else {
            throw .invalidField("sequence", reason: "must be in 0...\(FeedLimits.maxSequence)")
        }
        if (unsigned.sequence == 0) != (unsigned.previous == nil) {
            throw .invalidPrevious("previous must be null exactly at sequence 0")
        }
        guard unsigned.content.count <= FeedLimits.maxContentBytes else {
            throw .invalidField("content_enc", reason: "larger than \(FeedLimits.maxContentBytes) bytes")
        }
        var object = JSONObject()
        object["audience"] = .string(unsigned.audience.description)
        object["content_enc"] = .string(Base64URL.encode(unsigned.content))
        object["feed_id"] = .string(identity.feedID.string)
        object["previous"] = unsigned.previous.map { .string($0.string) } ?? .null
        object["sequence"] = .integer(Int64(unsigned.sequence))
        object["timestamp"] = .integer(unsigned.timestamp)
        object["type"] = .string(unsigned.type)
        object["version"] = .integer(FeedLimits.currentVersion)
        let signature: [UInt8]
        do {
            signature = try identity.sign(signingBytes(of: object))
        } catch {
            throw .unsupported("signing failed: \(error)")
        }
        object["signature"] = .string(Base64URL.encode(signature))
        let bytes = CanonicalJSON.serialize(object)
        return try parseV1(bytes)
    }
}
