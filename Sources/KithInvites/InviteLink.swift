import Foundation
import KithCanonical

/// An invite code found in a link or in pasted text, and the form it came in.
///
/// Forms read, first match wins (`convos-invites.md` §4.4): `convos[-env]://join|invite/<code>`,
/// `kith://invite/<code>`, Kith's QR form `KITH://QR/<BASE32>`, `https://…/v2?i=<code>`, `https://…/i/<code>`,
/// `https://…?code=<code>`, then a bare code.
public struct InviteLink: Sendable, Hashable {
    /// Where the code was found.
    public enum Form: Sendable, Hashable {
        /// `convos://…`, `convos-dev://…` (the app scheme, `join` or `invite`).
        case convosScheme(String)
        /// `kith://invite/<code>`.
        case kithScheme
        /// `KITH://QR/<BASE32>`: the code's bytes as uppercase base32, for a QR code in alphanumeric mode
        /// (``kithQRText(code:)``); ``code`` holds them as the usual base64url code.
        case kithQR
        /// `https://<host>/v2?i=<code>`, what Convos generates.
        case v2Query(host: String)
        /// `https://<host>/i/<code>`, what convos-web generates and Kith serves.
        case path(host: String)
        /// `https://<host>/…?code=<code>`.
        case codeQuery(host: String)
        /// A bare code.
        case bare
    }

    /// The code, `*` separators kept (``InviteCode/decode(_:)`` drops them).
    public let code: String
    /// The form it came in.
    public let form: Form

    /// Finds the code in `text` (whitespace around it is ignored). The code is not decoded here.
    ///
    /// - Throws: ``InviteError/unrecognizedInput(_:)`` for a URL of another form, or the errors of
    ///   ``InviteCode/looksLikeCode(_:)``'s rule for a bare code: ``InviteError/codeTooShort(characters:minimum:)``,
    ///   ``InviteError/codeTooLong(characters:maximum:)`` or ``InviteError/invalidCodeCharacter(offset:)``.
    public init(parsing text: String) throws(InviteError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        // Room for the QR form, whose base32 is 6/5 as long as the base64url code.
        guard trimmed.utf8.count <= InviteLimits.maxCodeCharacters * 6 / 5 + 512 else {
            throw .codeTooLong(characters: trimmed.utf8.count, maximum: InviteLimits.maxCodeCharacters)
        }
        if let schemeEnd = trimmed.range(of: "://") {
            let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
            let rest = String(trimmed[schemeEnd.upperBound...])
            (code, form) = try Self.parseURL(scheme: scheme, rest: rest, original: trimmed)
        } else {
            (code, form) = (trimmed, .bare)
        }
        try Self.checkShape(code)
    }

    /// The link Convos generates: `https://popup.convos.org/v2?i=<code>` (or `dev.convos.org`).
    public static func convosURL(code: String, production: Bool = true) -> String {
        "https://\(production ? "popup.convos.org" : "dev.convos.org")/v2?i=\(code)"
    }

    /// Kith's app link: `kith://invite/<code>`.
    public static func kithURL(code: String) -> String {
        "kith://invite/\(code)"
    }

    /// Kith's QR form of a code: `KITH://QR/` and the code's bytes as uppercase base32 (RFC 4648, no padding). Every
    /// character is in the QR alphanumeric set (5.5 bits a character against 8 in byte mode), so the same invite
    /// needs a smaller symbol than its `kith://invite/` link; it reads back as the same code.
    ///
    /// - Throws: ``InviteError`` when `code` is not base64url.
    public static func kithQRText(code: String) throws(InviteError) -> String {
        let compact = String(code.unicodeScalars.filter { $0 != "*" })
        let bytes: [UInt8]
        do throws(Base64URLError) { bytes = try Base64URL.decode(compact) } catch { throw .invalidBase64URL }
        return "KITH://QR/" + Base32.encode(bytes)
    }

    private static func parseURL(scheme: String, rest: String, original: String) throws(InviteError) -> (String, Form) {
        let (beforeQuery, query) = split(rest, at: "?")
        let pathParts = beforeQuery.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch scheme {
        case "convos", "convos-dev", "convos-local":
            guard pathParts.count == 2, ["join", "invite"].contains(pathParts[0].lowercased()) else {
                throw .unrecognizedInput(original)
            }
            return (percentDecoded(pathParts[1]), .convosScheme(scheme))
        case "kith":
            guard pathParts.count == 2 else { throw .unrecognizedInput(original) }
            switch pathParts[0].lowercased() {
            case "invite": return (percentDecoded(pathParts[1]), .kithScheme)
            case "qr":
                // Base32 reads canonical uppercase only; a scanner or a user may have lowered the case.
                guard let bytes = try? Base32.decode(pathParts[1].uppercased()) else { throw .unrecognizedInput(original) }
                return (Base64URL.encode(bytes), .kithQR)
            default: throw .unrecognizedInput(original)
            }
        case "https":
            let host = pathParts.first?.lowercased() ?? ""
            guard !host.isEmpty else { throw .unrecognizedInput(original) }
            let path = Array(pathParts.dropFirst().filter { !$0.isEmpty })
            let parameters = queryParameters(query)
            if path == ["v2"], let code = parameters["i"] { return (code, .v2Query(host: host)) }
            if path.count == 2, path[0] == "i" { return (percentDecoded(path[1]), .path(host: host)) }
            if let code = parameters["code"] { return (code, .codeQuery(host: host)) }
            throw .unrecognizedInput(original)
        default:
            throw .unrecognizedInput(original)
        }
    }

    private static func checkShape(_ code: String) throws(InviteError) {
        let utf8 = Array(code.utf8)
        guard utf8.count >= InviteLimits.minCodeCharacters else {
            throw .codeTooShort(characters: utf8.count, minimum: InviteLimits.minCodeCharacters)
        }
        guard utf8.count <= InviteLimits.maxCodeCharacters else {
            throw .codeTooLong(characters: utf8.count, maximum: InviteLimits.maxCodeCharacters)
        }
        if let offset = utf8.firstIndex(where: { !InviteCode.isCodeByte($0) }) {
            throw .invalidCodeCharacter(offset: offset)
        }
    }

    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else {
            let withoutFragment = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
            return (withoutFragment.map(String.init) ?? text, nil)
        }
        let after = String(text[text.index(after: index)...])
        let query = after.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        return (String(text[..<index]), query)
    }

    /// `key=value` pairs; the first occurrence of a key wins.
    private static func queryParameters(_ query: String?) -> [String: String] {
        var result: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let key = String(parts[0])
            if result[key] == nil { result[key] = percentDecoded(String(parts[1])) }
        }
        return result
    }

    /// Decodes `%2A`-style escapes of ASCII characters only (what `encodeURIComponent` may produce for a code);
    /// anything else is left as it is and later refused by the code's alphabet check.
    private static func percentDecoded(_ text: String) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.contains(UInt8(ascii: "%")) else { return text }
        var out: [UInt8] = []
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[(index + 1)...(index + 2)], as: UTF8.self), radix: 16),
                value < 0x80
            {
                out.append(value)
                index += 3
            } else {
                out.append(utf8[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
