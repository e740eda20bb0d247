import KithCanonical

/// The claims of a VAPID JWT (RFC 8292 §2): audience, expiry and contact.
public struct VAPIDClaims: Sendable, Equatable {
    /// `aud`: the origin of the push resource, `scheme://host[:port]` (no path).
    public let audience: String
    /// `exp`: expiry in seconds since 1970-01-01 UTC; at most 24 hours ahead.
    public let expiration: Int64
    /// `sub`: a `mailto:` or `https:` contact for the push service operator, if any.
    public let subject: String?

    /// Creates claims, checking the audience is an origin and the subject a contact URI.
    ///
    /// - Throws: ``VAPIDError/invalidClaim(name:reason:)``.
    public init(audience: String, expiration: Int64, subject: String?) throws(VAPIDError) {
        try Self.checkAudience(audience)
        if let subject {
            try Self.checkLength(subject, name: "sub")
            guard subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else {
                throw .invalidClaim(name: "sub", reason: "must be a mailto: or https: URI")
            }
        }
        self.audience = audience
        self.expiration = expiration
        self.subject = subject
    }

    /// The origin (`scheme://host[:port]`) of a push resource URL, for use as ``audience``.
    ///
    /// - Throws: ``VAPIDError/invalidClaim(name:reason:)`` when the URL is not http(s) with a host.
    public static func origin(of pushResource: String) throws(VAPIDError) -> String {
        guard let schemeEnd = pushResource.range(of: "://") else { throw .invalidClaim(name: "aud", reason: "no scheme in \(pushResource)") }
        let rest = pushResource[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let origin = String(pushResource[..<authorityEnd]).lowercased()
        try checkAudience(origin)
        return origin
    }

    /// The canonical JSON of the claims (members sorted: `aud`, `exp`, `sub`).
    var json: [UInt8] {
        let object: JSONObject = if let subject {
            ["aud": .string(audience), "exp": .integer(expiration), "sub": .string(subject)]
        } else {
            ["aud": .string(audience), "exp": .integer(expiration)]
        }
        return CanonicalJSON.serialize(object)
    }

    /// Reads the claims of a parsed JWT payload; unknown claims are ignored.
    static func read(_ object: JSONObject) throws(VAPIDError) -> VAPIDClaims {
        guard let audience = object["aud"]?.stringValue else { throw .invalidClaim(name: "aud", reason: "missing or not a string") }
        guard let expiration = object["exp"]?.integerValue else { throw .invalidClaim(name: "exp", reason: "missing or not an integer") }
        var subject: String?
        if let value = object["sub"] {
            guard let text = value.stringValue else { throw .invalidClaim(name: "sub", reason: "not a string") }
            try checkLength(text, name: "sub")
            subject = text
        }
        try checkLength(audience, name: "aud")
        // The subject's form is a SHOULD (RFC 8292 §2.1): a verifier accepts any string.
        return VAPIDClaims(unchecked: audience, expiration: expiration, subject: subject)
    }

    private init(unchecked audience: String, expiration: Int64, subject: String?) {
        self.audience = audience
        self.expiration = expiration
        self.subject = subject
    }

    private static func checkLength(_ text: String, name: String) throws(VAPIDError) {
        guard !text.isEmpty, text.utf8.count <= PushLimits.maxVAPIDClaimBytes else {
            throw .invalidClaim(name: name, reason: "empty or longer than \(PushLimits.maxVAPIDClaimBytes) bytes")
        }
    }

    private static func checkAudience(_ audience: String) throws(VAPIDError) {
        try checkLength(audience, name: "aud")
        let host: Substring
        if audience.hasPrefix("https://") {
            host = audience.dropFirst("https://".count)
        } else if audience.hasPrefix("http://") {
            host = audience.dropFirst("http://".count)
        } else {
            throw .invalidClaim(name: "aud", reason: "\(audience) is not an http(s) origin")
        }
        guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) }) else {
            throw .invalidClaim(name: "aud", reason: "\(audience) is not an origin (scheme://host[:port], no path)")
        }
    }
}
