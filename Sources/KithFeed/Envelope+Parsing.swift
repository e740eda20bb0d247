import KithCanonical
import KithIdentity

/// The outcome of reading envelope bytes: a v1 envelope, or one of a later version that can
/// only be stored and relayed (spec 10.1).
public enum ParsedEnvelope: Sendable {
    /// A structurally valid version-1 envelope (signature not yet checked).
    case v1(Envelope)
    /// An envelope of an unknown version: kept as-is, never verified or decrypted with v1 logic.
    case foreign(ForeignEnvelope)
}

/// An envelope whose version this implementation does not know, kept verbatim for relay.
public struct ForeignEnvelope: Sendable, Hashable {
    /// The version it declares.
    public let version: Int64
    /// Its feed id, when present and well formed.
    public let feedID: FeedID?
    /// Its sequence, when present and in range.
    public let sequence: UInt32?
    /// The exact bytes received.
    public let bytes: [UInt8]
    /// SHA-256 of the bytes, base64url.
    public let messageID: MessageID
}

extension Envelope {
    /// Parses received envelope bytes, which must already be canonical (never re-canonicalized).
    ///
    /// Checks size, canonical form, field presence and types, and every field rule of spec 3.2.
    /// Does not check the signature or the chain.
    public static func parse<Bytes: Collection>(_ input: Bytes) throws(FeedError) -> ParsedEnvelope where Bytes.Element == UInt8 {
        let bytes = Array(input)
        guard bytes.count <= FeedLimits.maxEnvelopeBytes else { throw .tooLarge(bytes.count) }
        let value: JSONValue
        let signatureRange: Range<Int>?
        do {
            (value, signatureRange) = try CanonicalJSON.parseCanonical(bytes, limits: jsonLimits, locatingMember: "signature")
        } catch {
            if error.code == "not_canonical" { throw .notCanonical(error.description) }
            throw .malformedJSON(error.description)
        }
        guard let object = value.objectValue else { throw .notAnObject }
        guard object.count <= FeedLimits.maxEnvelopeFields else {
            throw .invalidField("envelope", reason: "more than \(FeedLimits.maxEnvelopeFields) fields")
        }
        let version = try requiredInteger(object, "version")
        guard version >= 1 else { throw .invalidField("version", reason: "must be a positive integer") }
        let messageID = MessageID(hashing: bytes)
        if version != FeedLimits.currentVersion {
            let feedID = object["feed_id"]?.stringValue.flatMap { try? FeedID($0) }
            let sequence = object["sequence"]?.integerValue.flatMap { $0 >= 0 && $0 <= Int64(FeedLimits.maxSequence) ? UInt32($0) : nil }
            return .foreign(ForeignEnvelope(version: version, feedID: feedID, sequence: sequence, bytes: bytes, messageID: messageID))
        }
        return .v1(try v1(object, bytes: bytes, messageID: messageID, signatureRange: signatureRange))
    }

    /// Parses bytes that must be a version-1 envelope.
    public static func parseV1<Bytes: Collection>(_ input: Bytes) throws(FeedError) -> Envelope where Bytes.Element == UInt8 {
        switch try parse(input) {
        case .v1(let envelope): return envelope
        case .foreign(let foreign): throw .unsupportedVersion(foreign.version)
        }
    }

    static func v1(_ object: JSONObject, bytes: [UInt8], messageID: MessageID, signatureRange: Range<Int>?) throws(FeedError) -> Envelope {
        let feedText = try requiredString(object, "feed_id")
        let feedID: FeedID
        do { feedID = try FeedID(feedText) } catch { throw .invalidField("feed_id", reason: error.description) }

        let sequenceValue = try requiredInteger(object, "sequence")
        guard sequenceValue >= 0, sequenceValue <= Int64(FeedLimits.maxSequence) else {
            throw .invalidField("sequence", reason: "must be in 0...\(FeedLimits.maxSequence)")
        }
        let sequence = UInt32(sequenceValue)

        let timestamp = try requiredInteger(object, "timestamp")
        guard timestamp >= 0 else { throw .invalidField("timestamp", reason: "must not be negative") }

        let previous = try previousLink(object, sequence: sequence)

        let type = try requiredString(object, "type")
        try validateType(type)

        let audience = try Audience(try requiredString(object, "audience"))

        let contentEnc = try requiredString(object, "content_enc")
        guard contentEnc.utf8.count <= Base64URL.encodedLength(of: FeedLimits.maxContentBytes) else {
            throw .invalidField("content_enc", reason: "larger than \(FeedLimits.maxContentBytes) bytes")
        }
        if !Base64URL.isCanonical(contentEnc) {
            do { _ = try Base64URL.decode(contentEnc) } catch { throw .invalidField("content_enc", reason: error.description) }
        }

        let signatureText = try requiredString(object, "signature")
        let signature: [UInt8]
        do {
            signature = try Base64URL.decode(signatureText, expectedLength: FeedLimits.signatureBytes)
        } catch {
            throw .invalidField("signature", reason: error.description)
        }

        // Every known field was found above and keys are unique, so only a larger object has extras.
        var extras = JSONObject()
        if object.count > knownFields.count {
            for member in object.members where !knownFields.contains(member.key) {
                extras[member.key] = member.value
            }
        }

        return Envelope(Envelope.Parts(
            version: 1, feedID: feedID, sequence: sequence, timestamp: timestamp, previous: previous,
            type: type, audience: audience, contentEnc: contentEnc, signature: signature,
            extraFields: extras, canonicalBytes: bytes, messageID: messageID, fields: object, signatureRange: signatureRange
        ))
    }

    /// Reads `previous`: a message id, or null exactly at sequence 0 (envelopes and stubs alike).
    static func previousLink(_ object: JSONObject, sequence: UInt32) throws(FeedError) -> MessageID? {
        guard let value = object["previous"] else { throw .missingField("previous") }
        let previous: MessageID?
        if value.isNull {
            previous = nil
        } else if let text = value.stringValue {
            previous = try MessageID(text)
        } else {
            throw .invalidField("previous", reason: "must be a string or null")
        }
        if sequence == 0, previous != nil { throw .invalidPrevious("the genesis message (sequence 0) must have previous null") }
        if sequence > 0, previous == nil { throw .invalidPrevious("only the genesis message may have previous null") }
        return previous
    }

    /// Checks the `type` rule: 1...64 printable ASCII characters (no spaces).
    public static func validateType(_ type: String) throws(FeedError) {
        let utf8 = type.utf8
        guard !utf8.isEmpty, utf8.count <= FeedLimits.maxTypeLength,
              utf8.allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else {
            throw .invalidType(type)
        }
    }

    static func requiredString(_ object: JSONObject, _ name: String) throws(FeedError) -> String {
        guard let value = object[name] else { throw .missingField(name) }
        guard let text = value.stringValue else { throw .invalidField(name, reason: "must be a string") }
        return text
    }

    static func requiredInteger(_ object: JSONObject, _ name: String) throws(FeedError) -> Int64 {
        guard let value = object[name] else { throw .missingField(name) }
        guard let number = value.integerValue else { throw .invalidField(name, reason: "must be an integer") }
        return number
    }
}
