import KithCanonical

/// The value of an RFC 8292 `Authorization` header: `vapid t=<JWT>, k=<public key>`.
///
/// Create one with ``VAPIDSigner``; parse a received one with ``parse(_:)`` and check it with
/// ``VAPIDVerifier``.
public struct VAPIDAuthorization: Sendable, Equatable {
    /// The compact ES256 JWT (`t`).
    public let token: String
    /// The signer's P-256 public key as 65 uncompressed bytes (`k`).
    public let publicKey: [UInt8]

    /// Wraps a token and key without checking them (see ``VAPIDVerifier`` for the checks).
    ///
    /// - Throws: ``VAPIDError/invalidPublicKey(_:)`` unless `publicKey` is 65 bytes starting 0x04.
    public init(token: String, publicKey: [UInt8]) throws(VAPIDError) {
        guard publicKey.count == PushLimits.publicKeyLength, publicKey.first == 0x04 else {
            throw .invalidPublicKey("\(publicKey.count) bytes")
        }
        self.token = token
        self.publicKey = publicKey
    }

    /// The header value, `vapid t=<JWT>, k=<base64url key>`.
    public var headerValue: String { "vapid t=\(token), k=\(Base64URL.encode(publicKey))" }

    /// Parses an `Authorization` header value.
    ///
    /// The scheme is matched case-insensitively; parameters are separated by commas with optional
    /// whitespace (py_vapid writes `t=…,k=…`); unknown parameters are ignored (RFC 8292 §3).
    ///
    /// - Throws: ``VAPIDError/headerTooLarge(_:)``, ``VAPIDError/malformedHeader(_:)``,
    ///   ``VAPIDError/missingParameter(_:)``, ``VAPIDError/duplicateParameter(_:)`` or
    ///   ``VAPIDError/invalidPublicKey(_:)``.
    public static func parse(_ value: String) throws(VAPIDError) -> VAPIDAuthorization {
        let size = value.utf8.count
        guard size <= PushLimits.maxVAPIDHeaderBytes else { throw .headerTooLarge(size) }
        let trimmed = value.drop(while: { $0 == " " || $0 == "\t" })
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { throw .malformedHeader("no parameters") }
        guard trimmed[..<space].lowercased() == "vapid" else { throw .malformedHeader("scheme is not vapid") }

        var token: String?
        var key: String?
        for parameter in trimmed[space...].split(separator: ",", omittingEmptySubsequences: false) {
            let item = parameter.trimmingSpaces
            guard let equals = item.firstIndex(of: "=") else { throw .malformedHeader("parameter without '='") }
            let name = item[..<equals].trimmingSpaces.lowercased()
            let content = String(item[item.index(after: equals)...].trimmingSpaces)
            switch name {
            case "t":
                guard token == nil else { throw .duplicateParameter("t") }
                token = content
            case "k":
                guard key == nil else { throw .duplicateParameter("k") }
                key = content
            default:
                continue
            }
        }
        guard let token, !token.isEmpty else { throw .missingParameter("t") }
        guard let key else { throw .missingParameter("k") }
        let keyBytes: [UInt8]
        do { keyBytes = try Base64URL.decode(key) } catch { throw .invalidPublicKey("not base64url: \(error)") }
        return try VAPIDAuthorization(token: token, publicKey: keyBytes)
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[start...end]
    }
}
