import KithCanonical

/// ChatSecure-Push's time format, `%Y-%m-%dT%H:%M:%S.%fZ` (microseconds, literal Z), from
/// milliseconds since the epoch (UTC, proleptic Gregorian calendar).
enum GatewayTime {
    static func text(milliseconds: Int64) -> String {
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1_000)
        var whole = seconds.quotient
        var millis = seconds.remainder
        if millis < 0 { millis += 1_000; whole -= 1 }
        let dayParts = whole.quotientAndRemainder(dividingBy: 86_400)
        var days = dayParts.quotient
        var secondOfDay = dayParts.remainder
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = CivilDate.date(days: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3_600, 2)):\(pad(secondOfDay / 60 % 60, 2)):"
            + "\(pad(secondOfDay % 60, 2)).\(pad(millis * 1_000, 6))Z"
    }
}
