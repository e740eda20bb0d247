/// A Web Push endpoint URL, parsed strictly enough that the host checked is the host connected to.
public struct WebPushEndpoint: Sendable, Hashable {
    /// The original URL, unchanged, as the request is sent to it.
    public let url: String
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// The host, lowercased; IPv6 literals without brackets.
    public let host: String
    /// The explicit port, if the URL has one.
    public let port: Int?
    /// Whether ``host`` is an IP literal (as opposed to a DNS name).
    public let hostIsIPLiteral: Bool
    /// The path, query and fragment after the authority, unchanged (may be empty).
    public let pathAndQuery: String

    /// The URL the request goes to, rebuilt from the checked parts (lowercased scheme and host), so
    /// the HTTP client connects to exactly the host the policy checked.
    public var requestURL: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let portPart = port.map { ":\($0)" } ?? ""
        return "\(scheme)://\(hostPart)\(portPart)\(pathAndQuery)"
    }

    /// The RFC 6454 origin, `scheme://host[:port]`, the port kept only when it is not the scheme's
    /// default: the VAPID `aud` claim (RFC 8292 §2).
    public var origin: String {
        let hostPart = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        if let port, port != defaultPort { return "\(scheme)://\(hostPart):\(port)" }
        return "\(scheme)://\(hostPart)"
    }

    /// Parses `url`.
    ///
    /// - Throws: ``WebPushEndpointError`` for a URL that is too long, not http(s), or has user info,
    ///   spaces, control characters, an empty host or a bad port.
    public init(_ url: String) throws(WebPushEndpointError) {
        let size = url.utf8.count
        guard size <= WebPushEndpointPolicy.maxEndpointBytes else { throw .tooLong(size) }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else {
            throw .malformed("spaces, control, backslash or non-ASCII characters")
        }
        guard let separator = url.range(of: "://") else { throw .malformed("no scheme") }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.contains("@") else { throw .malformed("user info is not allowed") }

        var hostPart: Substring
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .malformed("unterminated IPv6 literal") }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .malformed("junk after IPv6 literal") }
                portPart = after.dropFirst()
            }
            guard IPAddressClassifier.parseIPv6(String(hostPart)) != nil else { throw .malformed("bad IPv6 literal") }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            } else {
                hostPart = authority
            }
            let allowed: (Character) -> Bool = { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
            guard hostPart.allSatisfy(allowed) else { throw .malformed("host has characters outside letters, digits, '-' and '.'") }
        }
        guard !hostPart.isEmpty else { throw .malformed("empty host") }
        var port: Int?
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(portPart), value >= 1, value <= 65_535 else { throw .malformed("bad port") }
            port = value
        }
        var host = hostPart.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        guard !host.isEmpty else { throw .malformed("empty host") }
        self.url = url
        self.scheme = scheme
        self.host = host
        self.port = port
        self.hostIsIPLiteral = authority.hasPrefix("[") || IPAddressClassifier.parseIPv4(host) != nil
        self.pathAndQuery = String(rest[authorityEnd...])
    }
}
