import KithCanonical

/// A push token one side of a room gave for presence pushes (Inviso's `client1_token` or `client2_token`
/// with its `platform`): 1 to ``RendezvousLimits/maximumPresenceTokenLength`` characters of
/// `[A-Za-z0-9:_-]` (APNs hex tokens and FCM registration tokens both fit).
///
/// Its description is redacted so it never reaches a log; read ``text`` where a push needs it.
public struct PresenceToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The push service that reaches the token.
    public let platform: PresencePlatform
    /// The token as sent.
    public let text: String

    /// Validates `text`; nil when empty, too long or outside `[A-Za-z0-9:_-]`.
    public init?(platform: PresencePlatform, text: String) {
        guard Self.isValid(text) else { return nil }
        self.platform = platform
        self.text = text
    }

    /// True when `text` is 1 to ``RendezvousLimits/maximumPresenceTokenLength`` characters of `[A-Za-z0-9:_-]`.
    public static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= RendezvousLimits.maximumPresenceTokenLength
            && IdentifierAlphabet.isCodeAlphabet(text.replacingColons)
    }

    /// Redacted: a push token addresses one phone.
    public var description: String { "PresenceToken(\(platform.rawValue), redacted)" }
    /// Redacted: a push token addresses one phone.
    public var debugDescription: String { description }
}

extension PresenceToken {
    /// Reads the optional token member `tokenKey` and `platform` of a room request with Inviso's leniency: a token
    /// absent, `null` or `""` gives nil (no presence pushes, as before); so does a token with no `platform` or with a
    /// platform other than ``PresencePlatform`` (Inviso's server keeps those but never pushes to them). A token that
    /// is not a string or breaks ``isValid(_:)``, or a `platform` that is not a string of at most
    /// ``RendezvousLimits/maximumPlatformLength`` printable ASCII characters, is refused (`invalid_<member>`).
    static func read(_ object: JSONObject, tokenKey: String) throws(RendezvousCodecError) -> PresenceToken? {
        let fields = JSONFields(object)
        let token = try fields.optionalString(tokenKey, maximumBytes: RendezvousLimits.maximumPresenceTokenLength)
        let platformText = try fields.optionalString("platform", maximumBytes: RendezvousLimits.maximumPlatformLength)
        if let platformText, !platformText.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
            throw .invalidField("platform", reason: "must be printable ASCII")
        }
        guard let token, !token.isEmpty else { return nil }
        guard isValid(token) else {
            throw .invalidField(tokenKey, reason: "must be 1 to \(RendezvousLimits.maximumPresenceTokenLength) characters of A-Z, a-z, 0-9, ':', '-' or '_'")
        }
        guard let platformText, let platform = PresencePlatform(rawValue: platformText.lowercased()) else { return nil }
        return PresenceToken(platform: platform, text: token)
    }

    /// Writes the token as `tokenKey` and its `platform` into a request body.
    func write(into object: inout JSONObject, tokenKey: String) {
        object[tokenKey] = .string(text)
        object["platform"] = .string(platform.rawValue)
    }
}

private extension String {
    /// The text with every `:` read as `-` (the token alphabet is the join code's plus `:`).
    var replacingColons: String { String(decoding: utf8.map { $0 == UInt8(ascii: ":") ? UInt8(ascii: "-") : $0 }, as: UTF8.self) }
}
