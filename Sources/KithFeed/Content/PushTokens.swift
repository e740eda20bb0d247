import KithCanonical

/// Hands a contact push whitelist tokens over the direct channel (Kith extension type `push_tokens`,
/// direct audience only): ChatSecure-Push's token exchange JSON, so the contact can knock (wake this
/// identity's devices through the gateway at `endpoint`) and nobody else can.
///
/// ```json
/// {"date_expires":"2026-12-24T10:00:00.000000Z","endpoint":"https://push.example/api/v1/",
///  "tokens":["1daf13e01982d3029cf09ae3d027a62923f0f2b6"],"type":"push_tokens"}
/// ```
///
/// Every token is issued for this one contact (docs/PUSH-CLIENT.md, "Token hygiene"). The fields are
/// checked strictly: 1...20 distinct tokens of 40 lowercase hex characters, an `http(s)` endpoint of
/// printable ASCII, an optional expiry in the gateway's time format, and an optional opaque string.
///
/// The seed's own exchange JSON is read too: `date_expires` as an array (one time per token, or one for all;
/// the tokens are held until the earliest) and the endpoint as the knock URL itself
/// (`https://push.chatsecure.org/api/v1/message`, ``apiBase`` strips the last segment).
public struct PushTokens: Sendable, Hashable {
    /// Most tokens one message carries (a gateway batch).
    public static let maxTokens = 20
    /// Longest endpoint, in bytes.
    public static let maxEndpointBytes = 512
    /// Longest `extra_data`, in Unicode scalars.
    public static let maxExtraDataScalars = 512
    /// Length of a token in hex characters (160 bits).
    public static let tokenHexLength = 40

    /// The gateway's API base, e.g. `https://push.example/api/v1/` (knocks are POSTed to `messages/` under it).
    public var endpoint: String
    /// The whitelist tokens, 40 lowercase hex characters each.
    public var tokens: [String]
    /// When the tokens expire, as `YYYY-MM-DDTHH:MM:SS[.ffffff]Z` (UTC), or nil when not said. For the seed's
    /// array form, the earliest of ``dateExpiresPerToken``.
    public var dateExpires: String?
    /// The seed's array form of `date_expires` as received (one time per token, or one), nil for the string form;
    /// written back as received so the content's bytes stay the sender's.
    public var dateExpiresPerToken: [String]?
    /// Opaque extra data (ChatSecure's `extra_data`; untrusted, render sanitized).
    public var extraData: String?

    /// Creates the content; ``Content/canonicalBytes()`` checks it as a reader would.
    public init(endpoint: String, tokens: [String], dateExpires: String? = nil, extraData: String? = nil) {
        self.endpoint = endpoint
        self.tokens = tokens
        self.dateExpires = dateExpires
        self.extraData = extraData
    }

    /// The expiry in seconds since 1970 UTC, nil when absent (the earliest time of the array form).
    public var expiresAt: Int64? {
        if let dateExpiresPerToken { return dateExpiresPerToken.compactMap(Self.parseTime).min() }
        return dateExpires.flatMap(Self.parseTime)
    }

    /// The gateway's API base knocks go under (`<base>messages/`): ``endpoint`` with a trailing `/`, or without
    /// its last segment when that names the knock route itself (`…/api/v1/message`, the seed's example, or
    /// `…/messages`).
    public var apiBase: String {
        var text = endpoint
        while text.hasSuffix("/") { text.removeLast() }
        for route in ["/message", "/messages"] where text.hasSuffix(route) {
            text.removeLast(route.count)
            break
        }
        return text + "/"
    }

    init(_ fields: ContentFields) throws(FeedError) {
        endpoint = try fields.requiredString("endpoint")
        guard Self.isEndpoint(endpoint) else {
            throw fields.fail("'endpoint' must be an http(s) URL of at most \(Self.maxEndpointBytes) printable ASCII characters")
        }
        tokens = try fields.stringArray("tokens", max: Self.maxTokens)
        guard !tokens.isEmpty else { throw fields.fail("'tokens' must hold 1...\(Self.maxTokens) tokens") }
        for token in tokens where !Self.isToken(token) {
            throw fields.fail("'tokens' entries must be \(Self.tokenHexLength) lowercase hex characters")
        }
        guard Set(tokens).count == tokens.count else { throw fields.fail("'tokens' must not repeat a token") }
        if let value = fields.object["date_expires"], value.arrayValue != nil {
            let times = try fields.stringArray("date_expires", max: Self.maxTokens)
            guard times.count == 1 || times.count == tokens.count else {
                throw fields.fail("'date_expires' as an array must hold one time, or one per token (\(tokens.count)), not \(times.count)")
            }
            for time in times where time.utf8.count > 32 || Self.parseTime(time) == nil {
                throw fields.fail("'date_expires' entries must be UTC times like 2026-12-24T10:00:00.000000Z (the seed's format pattern itself is not a time)")
            }
            dateExpiresPerToken = times
            dateExpires = times.min { (Self.parseTime($0) ?? 0) < (Self.parseTime($1) ?? 0) }
        } else {
            dateExpires = try fields.optionalString("date_expires")
            if let dateExpires, dateExpires.utf8.count > 32 || Self.parseTime(dateExpires) == nil {
                throw fields.fail("'date_expires' must be a UTC time like 2026-12-24T10:00:00.000000Z, or an array of them")
            }
        }
        extraData = try fields.optionalString("extra_data").map { value throws(FeedError) in
            try fields.text(value, "extra_data", maxScalars: Self.maxExtraDataScalars)
        }
    }

    var jsonMembers: JSONObject {
        var object = JSONObject()
        object["endpoint"] = .string(endpoint)
        object["tokens"] = .array(tokens.map { .string($0) })
        if let dateExpiresPerToken {
            object["date_expires"] = .array(dateExpiresPerToken.map { .string($0) })
        } else if let dateExpires {
            object["date_expires"] = .string(dateExpires)
        }
        if let extraData { object["extra_data"] = .string(extraData) }
        return object
    }

    /// True for 40 lowercase hex characters.
    public static func isToken(_ text: String) -> Bool {
        text.utf8.count == tokenHexLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// True for an `http://` or `https://` URL of printable ASCII without spaces, within the length bound.
    public static func isEndpoint(_ text: String) -> Bool {
        let bytes = text.utf8
        guard bytes.count <= maxEndpointBytes, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
        let rest: Substring
        if text.hasPrefix("https://") { rest = text.dropFirst(8) } else if text.hasPrefix("http://") { rest = text.dropFirst(7) } else { return false }
        guard let host = rest.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first else { return false }
        return !host.isEmpty
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,6}]Z` (the gateway's format, UTC) to seconds since 1970; nil otherwise.
    public static func parseTime(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 27, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int64(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 60 else { return nil }
        if bytes.count == 20 {
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
        } else {
            guard bytes[19] == UInt8(ascii: "."), bytes.count >= 22, number(20..<(bytes.count - 1)) != nil else { return nil }
        }
        let monthDays: [Int64] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        guard day <= monthDays[Int(month - 1)] + (month == 2 && leap ? 1 : 0) else { return nil }
        return CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    }

    /// Formats seconds since 1970 UTC in the gateway's format with microseconds (`.000000Z`).
    public static func formatTime(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = CivilDate.date(days: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var yearText = "\(year)"
        while yearText.count < 4 { yearText = "0" + yearText }
        return "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest / 60 % 60)):\(two(rest % 60)).000000Z"
    }
}
