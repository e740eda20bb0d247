import KithCanonical

/// A knock's body, ChatSecure's shape in canonical key order:
/// `{"message":{"data":<string or null>,"token":"<40 lowercase hex>"}}`. No message text, ever.
///
/// The gateway builds it, providers carry its `message` object in their own payloads (APNs, FCM), and
/// the receiving device reads it strictly after decryption: at most ``maxBytes`` bytes, exactly the
/// members above, `data` at most ``maxDataScalars`` characters.
public struct KnockBody: Sendable, Equatable {
    /// Largest body a receiver reads.
    public static let maxBytes = 1_024
    /// Longest `data`, in Unicode scalars (the gateway's bound).
    public static let maxDataScalars = 100
    /// Bounds of the JSON parse: a small, shallow object.
    static let limits = JSONLimits(maxBytes: maxBytes, maxDepth: 3, maxStringBytes: maxBytes, maxContainerElements: 8, maxTotalValues: 16)

    /// The whitelist token the knocker used: maps the knock to the contact it was issued to.
    public let token: WhitelistToken
    /// The knocker's optional short data (untrusted: render sanitized).
    public let data: String?

    /// Creates a body.
    public init(token: WhitelistToken, data: String? = nil) {
        self.token = token
        self.data = data
    }

    /// Parses a decrypted body.
    ///
    /// - Throws: ``KnockBodyError`` naming the broken rule.
    public init(bytes: [UInt8]) throws(KnockBodyError) {
        guard bytes.count <= Self.maxBytes else { throw KnockBodyError(reason: "knock body over \(Self.maxBytes) bytes") }
        guard let root = (try? CanonicalJSON.parse(bytes, limits: Self.limits))?.objectValue,
              root.count == 1, let message = root["message"]?.objectValue else {
            throw KnockBodyError(reason: "not a knock: expected {\"message\":{…}}")
        }
        guard message.count <= 2, message.keys.allSatisfy({ $0 == "token" || $0 == "data" }) else {
            throw KnockBodyError(reason: "a knock carries only 'token' and 'data'")
        }
        guard let hex = message["token"]?.stringValue, let token = try? WhitelistToken(hex: hex) else {
            throw KnockBodyError(reason: "the knock's token is not 40 hex characters")
        }
        var data: String?
        if let value = message["data"], !value.isNull {
            guard let text = value.stringValue, text.unicodeScalars.count <= Self.maxDataScalars else {
                throw KnockBodyError(reason: "the knock's data is not a string of at most \(Self.maxDataScalars) characters")
            }
            data = text
        }
        self.init(token: token, data: data)
    }

    /// The canonical JSON bytes.
    public var bytes: [UInt8] {
        CanonicalJSON.serialize(JSONValue.object(["message": .object(messageObject)]))
    }

    /// The `message` object, for providers that carry it in their own payload shape.
    public var messageObject: JSONObject {
        ["data": data.map(JSONValue.string) ?? .null, "token": .string(token.hex)]
    }
}

/// Why bytes are not a knock body.
public struct KnockBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broken rule, one phrase.
    public let reason: String

    /// One sentence.
    public var description: String { reason }
}
