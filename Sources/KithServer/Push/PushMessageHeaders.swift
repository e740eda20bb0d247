import KithPush

/// The RFC 8030 §5 headers of a push message request, validated.
struct PushMessageHeaders: Sendable, Equatable {
    /// Seconds the message may be stored, after shortening to the service's maximum.
    var timeToLiveSeconds: Int
    /// `very-low`, `low`, `normal` (the default) or `high`.
    var urgency: String
    /// At most 32 characters of the base64url alphabet; replaces a stored message with the same topic.
    var topic: String?

    /// Why a header was refused (400); the text is for the client.
    struct Problem: Error, Equatable {
        let message: String
    }

    /// Parses `TTL` (required, 1*DIGIT; values past 2^31 read as 2^31 before shortening), `Urgency`
    /// (one value) and `Topic`.
    init(ttl: [String], urgency: [String], topic: [String], maximumTimeToLiveSeconds: Int) throws(Problem) {
        guard ttl.count == 1, let text = ttl.first?.trimmingSpaces, !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw Problem(message: "the TTL header is required: a number of seconds (RFC 8030 §5.2)")
        }
        let digits = text.drop(while: { $0 == "0" })
        let value = digits.count > 10 ? Int(Int32.max) : min(Int(digits.isEmpty ? "0" : String(digits)) ?? Int(Int32.max), Int(Int32.max))
        timeToLiveSeconds = min(value, maximumTimeToLiveSeconds)
        switch urgency.count {
        case 0: self.urgency = "normal"
        case 1:
            let value = urgency[0].trimmingSpaces.lowercased()
            guard WebPushUrgency(rawValue: value) != nil else {
                throw Problem(message: "Urgency must be one of very-low, low, normal, high (RFC 8030 §5.3)")
            }
            self.urgency = value
        default: throw Problem(message: "only one Urgency header is allowed (RFC 8030 §5.3)")
        }
        switch topic.count {
        case 0: self.topic = nil
        case 1:
            let value = topic[0].trimmingSpaces
            guard WebPushTopic.isValid(value) else {
                throw Problem(message: "Topic must be 1 to 32 characters of the base64url alphabet (RFC 8030 §5.4)")
            }
            self.topic = value
        default: throw Problem(message: "only one Topic header is allowed (RFC 8030 §5.4)")
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
