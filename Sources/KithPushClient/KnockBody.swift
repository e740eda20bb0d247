import KithCanonical
import KithPush

/// A knock's decrypted body, ChatSecure's shape: `{"message":{"data":<string or null>,"token":"<40 hex>"}}`.
///
/// Read strictly: at most ``PushClientLimits/maxKnockBytes`` bytes, exactly the members above (no message
/// text can ride along), `data` at most 100 characters.
public struct KnockBody: Sendable, Equatable {
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
    /// - Throws: ``PushClientError/undecryptable(_:)`` naming the broken rule.
    public init(bytes: [UInt8]) throws(PushClientError) {
        guard bytes.count <= PushClientLimits.maxKnockBytes else { throw .undecryptable("knock body over \(PushClientLimits.maxKnockBytes) bytes") }
        guard let root = (try? CanonicalJSON.parse(bytes, limits: PushClientLimits.frameJSON))?.objectValue,
              root.count == 1, let message = root["message"]?.objectValue else {
            throw .undecryptable("not a knock: expected {\"message\":{…}}")
        }
        guard message.count <= 2, message.keys.allSatisfy({ $0 == "token" || $0 == "data" }) else {
            throw .undecryptable("a knock carries only 'token' and 'data'")
        }
        guard let hex = message["token"]?.stringValue, let token = try? WhitelistToken(hex: hex) else {
            throw .undecryptable("the knock's token is not 40 hex characters")
        }
        var data: String?
        if let value = message["data"], !value.isNull {
            guard let text = value.stringValue, text.unicodeScalars.count <= PushClientLimits.maxKnockDataScalars else {
                throw .undecryptable("the knock's data is not a string of at most \(PushClientLimits.maxKnockDataScalars) characters")
            }
            data = text
        }
        self.init(token: token, data: data)
    }

    /// The canonical JSON the gateway sends (for tests and peers).
    public var bytes: [UInt8] {
        var message = JSONObject()
        message["token"] = .string(token.hex)
        message["data"] = data.map { .string($0) } ?? .null
        var root = JSONObject()
        root["message"] = .object(message)
        return CanonicalJSON.serialize(root)
    }
}
