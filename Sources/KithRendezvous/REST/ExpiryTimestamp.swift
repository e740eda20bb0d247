import KithCanonical

/// A point in time on the server's clock, in milliseconds since 1970-01-01T00:00:00Z, written as
/// JavaScript's `toISOString()` writes it (`2025-01-31T12:00:00.000Z`), the form of Inviso's `exp`.
public struct ExpiryTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Milliseconds since the Unix epoch.
    public var millisecondsSinceEpoch: Int64

    /// The latest time representable in the ISO form (9999-12-31T23:59:59.999Z).
    static let maximumMilliseconds: Int64 = 253_402_300_799_999

    /// Wraps a time in milliseconds since the Unix epoch.
    public init(millisecondsSinceEpoch: Int64) { self.millisecondsSinceEpoch = millisecondsSinceEpoch }

    /// Parses `YYYY-MM-DDTHH:MM:SS.sssZ` (or without the fraction) in UTC, years 1970 to 9999;
    /// nil for anything else.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 24 || bytes.count == 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, character) in separators where bytes[index] != character.asciiValue { return nil }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var millisecond: Int64 = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let fraction = number(20..<23) else { return nil }
            millisecond = fraction
        }
        guard year >= 1970, (1...12).contains(month), day >= 1, day <= Self.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        millisecondsSinceEpoch = ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1_000 + millisecond
    }

    /// The ISO 8601 text with milliseconds, such as `2025-01-31T12:00:00.000Z` (clamped to 1970...9999).
    public var iso8601: String {
        let clamped = min(max(millisecondsSinceEpoch, 0), Self.maximumMilliseconds)
        let days = clamped / 86_400_000
        var rest = clamped % 86_400_000
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        let second = rest / 1_000
        let millisecond = rest % 1_000
        let (year, month, day) = CivilDate.date(days: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
    }

    /// The ISO 8601 text.
    public var description: String { iso8601 }

    /// Earlier times order first.
    public static func < (lhs: ExpiryTimestamp, rhs: ExpiryTimestamp) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }

    // MARK: Proleptic Gregorian calendar (days since 1970-01-01)

    private static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
